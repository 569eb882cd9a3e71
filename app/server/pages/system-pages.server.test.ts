import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { LOGICAL_TABLES, loadRows, nonEmptyTables } from "../ops/tables.server.ts";

// Backups and exports loaded into a new database (decision 035): the About, Contact and
// Privacy pages the migrations made are no content, and give way to the ones a load brings;
// an export from before pages brings its texts in the old setting, which the pages take.

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.cleanup();
  database = undefined;
});

const now = "2026-11-29T00:00:00.000Z";
const pagesOf = (db: TestDatabase["db"]) =>
  db.selectFrom("pages").select(["id", "slug", "bodyEn", "bodyZh"]).orderBy("slug").execute();

describe("loading a backup or an export into a new database", () => {
  it("counts the made pages as no content, but an edited one or an owner's page as content", async () => {
    database = await createTestDatabase();
    const pages = LOGICAL_TABLES.filter((t) => t.name === "pages");
    expect(await nonEmptyTables(database.db, pages)).toEqual([]);
    await database.db.updateTable("pages").set({ version: 2 }).where("slug", "=", "about").execute();
    expect(await nonEmptyTables(database.db, pages)).toEqual(["pages (1)"]);
  });

  it("gives the texts of an export from before pages to About, Contact and Privacy", async () => {
    database = await createTestDatabase();
    const { db } = database;
    const setting = { about: { en: "I bake.", zh: "我烤面包。" }, privacy: { en: "Nothing kept.", zh: "不保存。" } };
    await db
      .transaction()
      .execute((trx) =>
        loadRows(
          trx,
          { siteSettings: [{ key: "pages", value: JSON.stringify(setting), createdAt: now, updatedAt: now }] },
          { replace: false },
        ),
      );
    const pages = await pagesOf(db);
    expect(pages.map((p) => [p.slug, p.bodyEn, p.bodyZh])).toEqual([
      ["about", "I bake.", "我烤面包。"],
      ["contact", expect.stringContaining("write below"), expect.stringContaining("请在下面留言")],
      ["privacy", "Nothing kept.", "不保存。"],
    ]);
    // A replacing load of such an export leaves the pages in place too.
    await db.transaction().execute((trx) => loadRows(trx, {}, { replace: true }));
    expect((await pagesOf(db)).map((p) => p.slug)).toEqual(["about", "contact", "privacy"]);
  });

  it("puts the pages a load brings in place of the made ones", async () => {
    database = await createTestDatabase();
    const { db } = database;
    const page = (id: string, slug: string, systemKey: string | null) => ({
      id,
      slug,
      systemKey,
      status: "published",
      titleEn: slug,
      titleZh: slug,
      bodyEn: `Text of ${slug}`,
      bodyZh: "",
      descriptionEn: "",
      descriptionZh: "",
      authorId: null,
      version: 4,
      publishedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await db
      .transaction()
      .execute((trx) =>
        loadRows(trx, { pages: [page("p1", "about", "about"), page("p2", "now", null)] }, { replace: false }),
      );
    expect((await pagesOf(db)).map((p) => [p.id, p.slug])).toEqual([
      ["p1", "about"],
      ["p2", "now"],
    ]);
  });
});
