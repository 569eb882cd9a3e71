import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { migrateDown, migrateToLatest, migrationStatus } from "../db/migrate.server.ts";

// The migration that makes About, Contact and Privacy pages (decision 035): the texts an owner
// saved in the settings move over, the defaults for the ones never saved.

const CREATE = "20261129T050000_create_pages_and_menus";

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.cleanup();
  database = undefined;
});

async function beforeFill(): Promise<TestDatabase> {
  const opened = await createTestDatabase();
  // Back to before pages existed: the site as the upgrade finds it.
  while ((await migrationStatus(opened.db)).applied.includes(CREATE)) await migrateDown(opened.db);
  return opened;
}

const systemPages = (db: TestDatabase["db"]) =>
  db
    .selectFrom("pages")
    .select(["slug", "systemKey", "status", "titleEn", "titleZh", "bodyEn", "bodyZh"])
    .orderBy("slug")
    .execute();

describe("the About, Contact and Privacy pages migration", () => {
  it("carries the owner's texts over from the settings, at the old addresses, published", async () => {
    database = await beforeFill();
    const now = new Date().toISOString();
    const saved = {
      about: { en: "# Hi\n\nI bake.", zh: "我烤面包。" },
      contact: { en: "Write to me.", zh: "给我写信。" },
      privacy: { en: "Nothing kept.", zh: "什么都不保存。" },
    };
    await database.db
      .insertInto("siteSettings")
      .values({ key: "pages", value: JSON.stringify(saved), createdAt: now, updatedAt: now })
      .execute();
    await migrateToLatest(database.db);
    expect(await systemPages(database.db)).toEqual([
      {
        slug: "about",
        systemKey: "about",
        status: "published",
        titleEn: "About",
        titleZh: "关于",
        bodyEn: saved.about.en,
        bodyZh: saved.about.zh,
      },
      {
        slug: "contact",
        systemKey: "contact",
        status: "published",
        titleEn: "Contact",
        titleZh: "联系",
        bodyEn: saved.contact.en,
        bodyZh: saved.contact.zh,
      },
      {
        slug: "privacy",
        systemKey: "privacy",
        status: "published",
        titleEn: "Privacy policy",
        titleZh: "隐私政策",
        bodyEn: saved.privacy.en,
        bodyZh: saved.privacy.zh,
      },
    ]);
  });

  it("gives a site that never saved them the texts it showed, and a broken row counts as never saved", async () => {
    database = await beforeFill();
    const now = new Date().toISOString();
    await database.db
      .insertInto("siteSettings")
      .values({ key: "pages", value: "{not json", createdAt: now, updatedAt: now })
      .execute();
    await migrateToLatest(database.db);
    const pages = await systemPages(database.db);
    expect(pages.map((p) => p.slug)).toEqual(["about", "contact", "privacy"]);
    expect(pages[0]?.bodyEn).toContain("The owner has not written an About page yet");
    expect(pages[1]?.bodyZh).toContain("请在下面留言");
    expect(pages[2]?.bodyEn).toContain("## What this blog stores");
  });

  it("rolls back and forward again without a second copy", async () => {
    database = await createTestDatabase();
    // Down past the data migration only (its down keeps the pages), then up: no second copy.
    while ((await migrationStatus(database.db)).applied.includes("20261129T050100_fill_system_pages"))
      await migrateDown(database.db);
    await migrateToLatest(database.db);
    expect((await systemPages(database.db)).map((p) => p.slug)).toEqual(["about", "contact", "privacy"]);
  });
});
