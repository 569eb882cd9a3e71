import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImportBed, type ImportBed, withRedirectServer } from "../../../tests/setup/import-bed.ts";
import { importedPage } from "../../../tests/setup/imported-posts.ts";
import { type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { createPage, updatePage } from "../pages/pages.server.ts";
import { getPostImport } from "./job/report.server.ts";
import type { SourceRead } from "./markdown-folder.server.ts";
import { loadWxr, parseWxr } from "./wordpress/wxr.server.ts";
import { readWxr, WORDPRESS_SOURCE } from "./wordpress.server.ts";

// WordPress pages imported as pages (issue 48, decision 035 "Importing pages"), both dialects:
// tests/fixtures/wordpress/export.xml holds an About page (whose address is the site's own),
// a Polylang pair of pages and a child page under it.

const EXPORT = path.resolve(import.meta.dirname, "../../../tests/fixtures/wordpress/export.xml");
let bed: ImportBed;
let database: TestDatabase;

const runImport = async (given?: SourceRead) =>
  bed.runImport({ kind: WORDPRESS_SOURCE, label: EXPORT, read: given ?? readWxr(await loadWxr(EXPORT)) }, { chunk: 4 });
const pageOf = (sourceId: string) => importedPage(database.db, WORDPRESS_SOURCE, sourceId);
const redirectsTo = async (to: string) =>
  (await database.db.selectFrom("redirects").select("fromPath").where("toPath", "=", to).execute())
    .map((r) => r.fromPath)
    .sort();
/** The export with one item's text changed (a later export of the same site). */
const exportWith = async (from: string, to: string) => {
  const text = await readFile(EXPORT, "utf8");
  expect(text).toContain(from);
  return readWxr(await parseWxr([text.replace(from, to)]));
};

beforeAll(async () => {
  bed = await createImportBed("wp-pages", { email: "wp-pages@example.test" });
  database = bed.database;
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`importing WordPress pages as pages (${testDialect()})`, () => {
  it("writes each page to the pages table in both languages, never as a post", async () => {
    const id = await runImport();
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ status: "done", total: 10, imported: 7, pages: 3, failed: 0 });
    const visit = await pageOf("80+81");
    expect(visit).toMatchObject({
      slug: "visit-us",
      status: "published",
      titleEn: "Visit the shop",
      titleZh: "到店品茶",
      descriptionEn: "Where to find us.",
    });
    expect(visit.bodyEn).toContain("**taste**");
    expect(visit.bodyZh).toContain("欢迎来店里一起品茶。");
    expect(await pageOf("82")).toMatchObject({ slug: "opening-hours", titleEn: "Opening hours", titleZh: "" });
    // No post carries a page's title, and the old "Pages" category is not made.
    const titles = await database.db.selectFrom("postTranslations").select("title").execute();
    expect(titles.map((t) => t.title)).not.toEqual(expect.arrayContaining(["Visit the shop"]));
    expect(titles.map((t) => t.title)).not.toContain("Opening hours");
    expect(await database.db.selectFrom("categories").select("id").where("nameEn", "=", "Pages").execute()).toEqual([]);
    // Each page has its first revision, by the importing account.
    const revisions = await database.db
      .selectFrom("pageRevisions")
      .select("authorId")
      .where("pageId", "=", visit.id)
      .execute();
    expect(revisions).toEqual([{ authorId: bed.author.id }]);
  });

  it("gives a page whose address the site answers itself a free one, and says so", async () => {
    // `/about` is the site's own About page: WordPress's About moves to /about-2.
    const about = await pageOf("50");
    expect(about.slug).toBe("about-2");
    expect(about.systemKey).toBeNull();
    const system = await database.db
      .selectFrom("pages")
      .select(["bodyEn"])
      .where("systemKey", "=", "about")
      .executeTakeFirstOrThrow();
    expect(system.bodyEn).not.toContain("We write about tea.");
    const [job] = await database.db.selectFrom("postImports").select("id").execute();
    const report = (await getPostImport(database.db, job?.id ?? ""))?.report ?? [];
    expect(report).toContainEqual({
      item: "About [50]",
      outcome: "note",
      reason: "pageSlugReserved",
      detail: "/about → /about-2",
    });
    // Its old address is the site's About: not redirected, and noted.
    expect(report).toContainEqual(expect.objectContaining({ reason: "redirectReserved", detail: "/about" }));
  });

  it("redirects the pages' old addresses to them with a 301, never a page's own", async () => {
    expect(await redirectsTo("/visit-us")).toEqual(["/?page_id=80", "/?page_id=81", "/dao-dian"]);
    expect(await redirectsTo("/zh/visit-us")).toEqual(["/zh/dao-dian"]);
    expect(await redirectsTo("/opening-hours")).toEqual(["/?page_id=82", "/visit-us/opening-hours"]);
    expect(await redirectsTo("/about-2")).toEqual(["/?page_id=50"]);
    await withRedirectServer(database.db, async (base) => {
      for (const [from, to] of [
        ["/?page_id=80", "/visit-us"],
        ["/zh/dao-dian/", "/zh/visit-us"],
        ["/visit-us/opening-hours/", "/opening-hours"],
      ] as const) {
        const res = await fetch(`${base}${from}`, { redirect: "manual" });
        expect(res.status, from).toBe(301);
        expect(res.headers.get("location"), from).toBe(to);
      }
      // The page's own address (and its /en form) is the page, not a redirect.
      for (const own of ["/visit-us/", "/en/visit-us/", "/opening-hours/"])
        expect((await fetch(`${base}${own}`, { redirect: "manual" })).status, own).toBe(404);
    });
  });

  it("a second run adds no page and no redirect; a changed page is updated unless edited here", async () => {
    const counted = () => Promise.all((["pages", "pageRevisions", "redirects"] as const).map((t) => bed.count(t)));
    const before = await counted();
    const again = await runImport();
    expect(await getPostImport(database.db, again)).toMatchObject({ imported: 0, updated: 0, pages: 0, skipped: 10 });
    expect(await counted()).toEqual(before);

    // The owner edits "Opening hours" here; the next export changes it and the pair.
    const hours = await pageOf("82");
    const edited = await updatePage(database.db, hours.id, { ...hours, bodyEn: "Closed in August." }, bed.author.id);
    expect(edited.ok).toBe(true);
    const later = await exportWith("<p>Every day but Monday.</p>", "<p>Every day.</p>");
    const text = JSON.stringify(later.posts).replace("Come and **taste** with us.", "Come and drink with us.");
    const changed: SourceRead = { ...later, posts: JSON.parse(text) as SourceRead["posts"] };
    const third = await runImport(changed);
    const job = await getPostImport(database.db, third);
    expect(job).toMatchObject({ imported: 0, updated: 0, pages: 1, skipped: 9 });
    expect(job?.report).toContainEqual(
      expect.objectContaining({ item: "Opening hours [82]", outcome: "skipped", reason: "editedSinceImport" }),
    );
    expect((await pageOf("82")).bodyEn).toBe("Closed in August.");
    const visit = await pageOf("80+81");
    expect(visit.bodyEn).toContain("Come and drink with us.");
    expect(visit.slug).toBe("visit-us");
  });

  it("gives a page whose address another page has the next free one, and redirects its old address there", async () => {
    await createPage(
      database.db,
      {
        slug: "tea-room",
        status: "published",
        titleEn: "Our tea room",
        titleZh: "",
        bodyEn: "",
        bodyZh: "",
        descriptionEn: "",
        descriptionZh: "",
      },
      bed.author.id,
    );
    const wxr = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Other</title><wp:wxr_version>1.2</wp:wxr_version>
<item><title>Tea room</title><link>https://other.example/tea-room/</link>
<content:encoded><![CDATA[<p>Upstairs.</p>]]></content:encoded>
<wp:post_id>900</wp:post_id><wp:post_date_gmt>2020-01-01 00:00:00</wp:post_date_gmt><wp:post_name>tea-room</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>page</wp:post_type></item>
</channel></rss>`;
    const id = await runImport(readWxr(await parseWxr([wxr])));
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ pages: 1, failed: 0 });
    expect(job?.report).toContainEqual({
      item: "Tea room [900]",
      outcome: "note",
      reason: "pageSlugTaken",
      detail: "/tea-room → /tea-room-2",
    });
    expect((await pageOf("900")).slug).toBe("tea-room-2");
    // `/tea-room` is the other page's: the old address stays with it, not redirected.
    expect(job?.report).toContainEqual(expect.objectContaining({ reason: "redirectLive", detail: "/tea-room" }));
    expect(await redirectsTo("/tea-room-2")).toEqual(["/?page_id=900"]);
  });
});
