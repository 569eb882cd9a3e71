import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../../tests/fixtures/images.ts";
import { createImportBed, type ImportBed, withRedirectServer } from "../../../tests/setup/import-bed.ts";
import { importedPage, importedPost } from "../../../tests/setup/imported-posts.ts";
import { type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { GHOST_SOURCE, loadGhostExport, readGhostExport } from "./ghost.server.ts";
import { getPostImport } from "./job/report.server.ts";

// The Ghost import end to end on a repository level (both dialects): tests/fixtures/ghost/export.json
// with Ghost's content/images folder made in a temporary folder.

const EXPORT = path.resolve(import.meta.dirname, "../../../tests/fixtures/ghost/export.json");
let bed: ImportBed;
let database: TestDatabase;

const runImport = async () =>
  bed.runImport(
    { kind: GHOST_SOURCE, label: EXPORT, read: readGhostExport(await loadGhostExport(EXPORT)) },
    { chunk: 4 },
  );
const postOf = (sourceId: string) => importedPost(database.db, GHOST_SOURCE, sourceId);
const pageOf = (sourceId: string) => importedPage(database.db, GHOST_SOURCE, sourceId);
const count: ImportBed["count"] = (table) => bed.count(table);

beforeAll(async () => {
  bed = await createImportBed("ghost", { email: "ghost-importer@example.test" });
  database = bed.database;
  // The images folder given is Ghost's root: content/images/… under it.
  await mkdir(path.join(bed.root, "content/images/2024/03"), { recursive: true });
  await writeFile(path.join(bed.root, "content/images/2024/03/pic.png"), await png(64, 48));
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`importing a Ghost export (${testDialect()})`, () => {
  it("imports posts, the page, the draft, the scheduled and the Chinese post with their content", async () => {
    const id = await runImport();
    expect(await getPostImport(database.db, id)).toMatchObject({
      status: "done",
      total: 6,
      imported: 5,
      pages: 1,
      failed: 0,
      // Five posts' /{slug}/ addresses (the page's is its own address here), three /tag/{slug}/
      // ones, the author's /author/{slug}/ and /rss/.
      redirectsAdded: 10,
      imagesStored: 1,
      // The cover is not in the folder; the hostile post's `x` is no file either.
      imagesMissing: 2,
    });
    expect(await count("posts")).toBe(5);
    const hello = await postOf("6650a1");
    expect(hello.post).toMatchObject({
      slug: "hello-ghost",
      status: "published",
      publishedAt: "2024-03-05T10:00:00.000Z",
    });
    const [media] = await database.db.selectFrom("media").select("id").execute();
    const en = hello.translations[0];
    expect(en).toMatchObject({ locale: "en", title: "Hello Ghost", summary: "A first post from Ghost." });
    expect(en?.bodyMarkdown).toContain(`![A picture](/media/${media?.id}/`);
    expect(en?.bodyHtml).toContain("<h2");
    expect(en?.bodyHtml).toContain("<strong>bold</strong>");
    const tags = await database.db
      .selectFrom("postTags as pt")
      .innerJoin("tags as t", "t.id", "pt.tagId")
      .select("t.nameEn")
      .where("pt.postId", "=", hello.post.id)
      .execute();
    expect(tags.map((t) => t.nameEn).sort()).toEqual(["Notes", "Travel"]);
    expect((await postOf("6650a2")).post.status).toBe("draft");
    expect((await postOf("6650a5")).post.status).toBe("scheduled");
    // Ghost's page is a page here, at its own address, and no post (decision 035).
    const page = await pageOf("6650a3");
    expect(page).toMatchObject({ slug: "about-this-blog", status: "published", titleEn: "About this blog" });
    expect(page.bodyEn).toContain("This blog is about things.");
    expect(await database.db.selectFrom("categories").select("id").where("nameEn", "=", "Pages").execute()).toEqual([]);
    expect((await postOf("6650a4")).translations.map((t) => [t.locale, t.title])).toEqual([["zh", "你好，世界"]]);
    const hostile = (await postOf("6650a6")).translations[0]?.bodyHtml ?? "";
    expect(hostile).not.toMatch(/<script|javascript:|onerror|onclick|<iframe/i);
    expect(hostile).toContain("click me");
  });

  it("redirects Ghost's /{slug}/ and /tag/{slug}/ addresses with a 301", async () => {
    const hello = await postOf("6650a1");
    const zh = await postOf("6650a4");
    const writer = await database.db
      .selectFrom("users")
      .select("handle")
      .where("id", "=", hello.post.authorId ?? "")
      .executeTakeFirstOrThrow();
    await withRedirectServer(database.db, async (base) => {
      for (const [from, to] of [
        ["/hello-ghost/", `/posts/detail/${hello.post.id}`],
        ["/ni-hao-shi-jie/", `/posts/detail/${zh.post.id}`],
        // Ghost's feed, and its author page to the author page of the account made for the writer.
        ["/rss/", "/rss.xml"],
        ["/author/ghost-writer/", `/authors/${writer.handle}`],
      ] as const) {
        const res = await fetch(`${base}${from}`, { redirect: "manual" });
        expect(res.status, from).toBe(301);
        expect(res.headers.get("location"), from).toBe(to);
      }
      const travel = await database.db
        .selectFrom("tags")
        .select("slug")
        .where("nameEn", "=", "Travel")
        .executeTakeFirstOrThrow();
      const res = await fetch(`${base}/tag/travel/`, { redirect: "manual" });
      expect(res.status).toBe(301);
      expect(res.headers.get("location")).toBe(`/tags/${travel.slug}`);
      // The internal #feature tag was never imported.
      expect((await fetch(`${base}/tag/hash-feature/`, { redirect: "manual" })).status).toBe(404);
    });
  });

  it("a second run of the same export adds nothing", async () => {
    const tables = ["posts", "postTranslations", "pages", "media", "redirects", "tags", "categories"] as const;
    const before = await Promise.all(tables.map(count));
    const id = await runImport();
    expect(await getPostImport(database.db, id)).toMatchObject({ imported: 0, updated: 0, pages: 0, skipped: 6 });
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });
});
