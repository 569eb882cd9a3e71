import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { zipSync } from "fflate";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

const STAMP = Date.now();
const SLUG = `moving-in-${STAMP}`;
const GHOST_OLD = [
  "/hello-ghost/",
  "/unfinished/",
  "/about-this-blog/",
  "/ni-hao-shi-jie/",
  "/coming-soon/",
  "/hostile/",
];
const GHOST_OLD_TAGS = ["/tag/travel/", "/tag/notes/", "/tag/zhong-wen/", "/tag/hash-feature/"];
const enc = (text: string) => new TextEncoder().encode(text);
/** A small WordPress export: a post with a reply thread and a held comment (ids and slugs carry the stamp). */
const WXR = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old WP</title><wp:wxr_version>1.2</wp:wxr_version>
<item><title>From WordPress ${STAMP}</title><link>https://old.example/2019/01/wp-${STAMP}/</link>
<content:encoded><![CDATA[<!-- wp:paragraph --><p>Moved from <em>WordPress</em>.</p><!-- /wp:paragraph -->]]></content:encoded>
<excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${STAMP}</wp:post_id><wp:post_date_gmt>2019-01-02 03:04:05</wp:post_date_gmt><wp:post_name>wp-${STAMP}</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:comment><wp:comment_id>${STAMP}1</wp:comment_id><wp:comment_author>Ann Reader</wp:comment_author><wp:comment_date_gmt>2019-01-03 00:00:00</wp:comment_date_gmt><wp:comment_content>First comment ${STAMP}</wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>
<wp:comment><wp:comment_id>${STAMP}2</wp:comment_id><wp:comment_author>Mei Lin</wp:comment_author><wp:comment_date_gmt>2019-01-04 00:00:00</wp:comment_date_gmt><wp:comment_content>A reply ${STAMP}</wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_parent>${STAMP}1</wp:comment_parent></wp:comment>
<wp:comment><wp:comment_id>${STAMP}3</wp:comment_id><wp:comment_author>Held Back</wp:comment_author><wp:comment_date_gmt>2019-01-05 00:00:00</wp:comment_date_gmt><wp:comment_content>Not approved ${STAMP}</wp:comment_content><wp:comment_approved>0</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>
<wp:comment><wp:comment_id>${STAMP}4</wp:comment_id><wp:comment_author>Spammer</wp:comment_author><wp:comment_content>Spam ${STAMP}</wp:comment_content><wp:comment_approved>spam</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>
</item></channel></rss>`;

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: leave nothing of this import behind.
  const { db } = serverDb;
  await db.deleteFrom("redirects").where("fromPath", "like", `%${STAMP}%`).execute();
  await db.deleteFrom("posts").where("slug", "like", `%${STAMP}%`).execute();
  await db.deleteFrom("importSources").where("sourceId", "like", `%${STAMP}%`).execute();
  await db.deleteFrom("postImports").where("label", "=", `blog-${STAMP}.zip`).execute();
  // The Ghost fixture's slugs are fixed: remove its posts, old addresses and mappings for the next run.
  const ghost = db.selectFrom("importSources").select("targetId").where("source", "=", "ghost");
  await db
    .deleteFrom("posts")
    .where("id", "in", ghost.where("entity", "=", "post"))
    .execute();
  // Its page is a page (decision 035): removed with its revisions.
  const ghostPages = ghost.where("entity", "=", "page");
  await db.deleteFrom("pageRevisions").where("pageId", "in", ghostPages).execute();
  await db.deleteFrom("pages").where("id", "in", ghostPages).execute();
  await db
    .deleteFrom("redirects")
    .where("fromPath", "in", [...GHOST_OLD, ...GHOST_OLD_TAGS, "/author/ghost-writer/", "/rss/"])
    .execute();
  // The author account the import made for the fixture's writer.
  const authors = db
    .selectFrom("importSources")
    .select("targetId")
    .where("source", "=", "ghost")
    .where("entity", "=", "author");
  await db.deleteFrom("users").where("id", "in", authors).where("email", "like", "%@authors.invalid").execute();
  await db.deleteFrom("importSources").where("source", "=", "ghost").execute();
  await db.deleteFrom("postImports").where("label", "=", `ghost-${STAMP}.json`).execute();
  await db.deleteFrom("postImports").where("label", "=", `wordpress-${STAMP}.xml`).execute();
});

test("an admin uploads a Markdown blog, checks the dry run, imports it and old links land", async ({
  page,
  serverDb,
}) => {
  const zip = zipSync({
    [`blog/posts/${SLUG}.en.md`]: enc(
      `---\ntitle: Moving in ${STAMP}\ndate: 2020-05-06\nslug: ${SLUG}\n---\n\nHello.\n`,
    ),
    [`blog/posts/${SLUG}.zh.md`]: enc(`---\ntitle: 搬家 ${STAMP}\ndate: 2020-05-06\nslug: ${SLUG}\n---\n\n你好。\n`),
    [`blog/posts/second-${STAMP}.md`]: enc(
      `---\ntitle: Second ${STAMP}\ndate: 2020-05-07\n---\n\n![gone](gone.png)\n\n![far](https://img.invalid/far-${STAMP}.png)\n`,
    ),
  });
  await signedInAdmin(page, serverDb.db, "import-admin");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
  await page.getByLabel("Zip of the blog folder, Ghost or WordPress export").setInputFiles({
    name: `blog-${STAMP}.zip`,
    mimeType: "application/zip",
    buffer: Buffer.from(zip),
  });
  await page.getByRole("button", { name: "Check the file" }).click();

  // The dry run: two posts (one in two languages), a missing image, nothing written yet.
  const dryRun = page.getByRole("region", { name: "What the import would do" });
  await expect(dryRun).toContainText("2 posts found. Nothing has been written yet.");
  await expect(dryRun.locator('[data-count="imported"]')).toHaveText("2");
  await expect(dryRun).toContainText("no such file in the zip (gone.png)");
  // A remote image stays a link unless the box is ticked, and the dry run says so.
  await expect(dryRun).toContainText(`remote image kept as a link`);
  await expect(dryRun).toContainText(`https://img.invalid/far-${STAMP}.png`);
  await expect(page.getByRole("checkbox", { name: "Fetch remote images" })).not.toBeChecked();
  const before = await serverDb.db.selectFrom("posts").select("id").where("slug", "=", SLUG).execute();
  expect(before).toEqual([]);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  await page.getByRole("button", { name: "Import now" }).click();
  // This file's newest import (another file may import beside it: import-wordpress-pages.spec.ts).
  const job = page
    .locator("#imports article")
    .filter({ hasText: String(STAMP) })
    .first();
  await expect(job.locator('[data-status="done"]')).toBeVisible({ timeout: 20_000 });
  await expect(job.locator('[data-count="imported"]')).toHaveText("2");

  // An old address of the blog, typed by a reader: a 301 to the imported post.
  const answer = await page.request.get(`/posts/${SLUG}/`, { maxRedirects: 0 });
  expect(answer.status()).toBe(301);
  await page.goto(`/2020/05/06/${SLUG}/`);
  await expect(page).toHaveURL(/\/posts\/detail\//);
  await expect(page.getByRole("heading", { level: 1, name: `Moving in ${STAMP}` })).toBeVisible();

  // Bad input is a 400 with nothing written: a file that is no zip, a confirmation of nothing.
  const origin = new URL(page.url()).origin;
  const notZip = await page.request.post("/admin/import", {
    headers: { origin },
    multipart: {
      intent: "upload",
      file: { name: "x.zip", mimeType: "application/zip", buffer: Buffer.from("no zip") },
    },
  });
  expect(notZip.status()).toBe(400);
  const nothing = await page.request.post("/admin/import", {
    headers: { origin },
    form: { intent: "confirm", id: "nope" },
  });
  expect(nothing.status()).toBe(400);

  // A Ghost export, told apart by its content: the same dry run, then the import.
  await page.goto("/admin/import");
  await page.getByLabel("Zip of the blog folder, Ghost or WordPress export").setInputFiles({
    name: `ghost-${STAMP}.json`,
    mimeType: "application/json",
    buffer: await readFile("tests/fixtures/ghost/export.json"),
  });
  await page.getByLabel("Language of a Ghost or WordPress blog").selectOption("auto");
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(dryRun).toContainText("6 posts found. Nothing has been written yet.");
  // Five posts; Ghost's page becomes a page (decision 035).
  await expect(dryRun.locator('[data-count="imported"]')).toHaveText("5");
  await expect(dryRun.locator('[data-count="pages"]')).toHaveText("1");
  // The dry run as a file, before anything is written.
  const planDownload = page.waitForEvent("download");
  await dryRun.getByRole("link", { name: `Download the dry run of ghost-${STAMP}.json as JSON` }).click();
  const planFile = await planDownload;
  expect(planFile.suggestedFilename()).toMatch(/^import-.+-dry-run\.json$/);
  const plan = JSON.parse(await readFile((await planFile.path()) ?? "", "utf8"));
  expect(plan).toMatchObject({ report: "dry-run", kind: "ghost", file: `ghost-${STAMP}.json` });
  expect(plan.counts).toMatchObject({ total: 6, imported: 5, pages: 1 });
  await page.getByRole("button", { name: "Import now" }).click();
  await expect(job.locator("code").first()).toHaveText(`ghost-${STAMP}.json`);
  await expect(job.locator('[data-status="done"]')).toBeVisible({ timeout: 20_000 });
  expect((await page.request.get("/hello-ghost/", { maxRedirects: 0 })).status()).toBe(301);
  // Ghost's page is a page at its old address.
  expect((await page.request.get("/about-this-blog", { maxRedirects: 0 })).status()).toBe(200);
  // The final report, as text for people; the dry run is still there beside it.
  const finalDownload = page.waitForEvent("download");
  await job.getByRole("link", { name: `Download the report of ghost-${STAMP}.json as text` }).click();
  const finalText = await readFile((await (await finalDownload).path()) ?? "", "utf8");
  expect(finalText).toContain("Import report\n");
  expect(finalText).toContain("Posts imported: 5");
  expect(finalText).toContain("Pages imported or updated: 1");
  expect(finalText).toContain("Status: done");
  await expect(job.getByRole("link", { name: `Download the dry run of ghost-${STAMP}.json as text` })).toBeVisible();
  // Reports are for admins only: signed out, the same address answers no report.
  const reportHref =
    (await job
      .getByRole("link", { name: /as JSON$/ })
      .last()
      .getAttribute("href")) ?? "";
  const anonymous = await page.context().browser()?.newContext();
  const outsider = await anonymous?.request.get(new URL(reportHref, page.url()).toString(), { maxRedirects: 0 });
  expect(outsider?.status()).not.toBe(200);
  expect(await outsider?.text()).not.toContain('"report"');
  await anonymous?.close();
  expect((await page.request.get("/admin/import/nope/report.json")).status()).toBe(404);
  expect((await page.request.get(reportHref.replace(/report\.json$/, "other.json"))).status()).toBe(404);
  const post = (file: string, lang = "auto") =>
    page.request.post("/admin/import", {
      headers: { origin: new URL(page.url()).origin },
      multipart: {
        intent: "upload",
        lang,
        file: { name: "x.json", mimeType: "application/json", buffer: Buffer.from(file) },
      },
    });
  expect((await post('{"posts": []}')).status()).toBe(400);
  expect((await post('{"db": [{"data": {"posts": []}}]}', "fr")).status()).toBe(400);

  // A WordPress export: the post with its comments, the reply under its comment, the held one not shown.
  await page.goto("/admin/import");
  await page.getByLabel("Zip of the blog folder, Ghost or WordPress export").setInputFiles({
    name: `wordpress-${STAMP}.xml`,
    mimeType: "text/xml",
    buffer: Buffer.from(WXR),
  });
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(dryRun).toContainText("1 post found. Nothing has been written yet.");
  await expect(dryRun.locator('[data-count="commentsAdded"]')).toHaveText("3");
  await expect(dryRun).toContainText("spam or trashed comments left out");
  await page.getByRole("button", { name: "Import now" }).click();
  await expect(job.locator("code").first()).toHaveText(`wordpress-${STAMP}.xml`);
  await expect(job.locator('[data-status="done"]')).toBeVisible({ timeout: 20_000 });
  await expect(job.locator('[data-count="commentsAdded"]')).toHaveText("3");
  expect((await page.request.get(`/?p=${STAMP}`, { maxRedirects: 0 })).status()).toBe(301);
  await page.goto(`/2019/01/wp-${STAMP}/`);
  await expect(page.getByRole("heading", { level: 1, name: `From WordPress ${STAMP}` })).toBeVisible();
  const first = page
    .getByRole("listitem")
    .filter({ hasText: `First comment ${STAMP}` })
    .first();
  await expect(first).toContainText("Ann Reader");
  await expect(first).toContainText(`A reply ${STAMP}`);
  await expect(page.getByText(`Not approved ${STAMP}`)).toHaveCount(0);
  await expect(page.getByText(`Spam ${STAMP}`)).toHaveCount(0);
  // XML that is not a WordPress export: a 400, nothing staged.
  expect((await post("<?xml version='1.0'?><feed/>")).status()).toBe(400);

  // The same page in Chinese.
  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto("/admin/import");
  await expect(page.getByRole("heading", { level: 1, name: "导入" })).toBeVisible();
  await expect(page.getByText("已完成", { exact: true }).first()).toBeVisible();
  const zhDownload = page.waitForEvent("download");
  await page
    .getByRole("link", { name: /^以文本下载 .* 的导入报告$/ })
    .first()
    .click();
  const zhText = await readFile((await (await zhDownload).path()) ?? "", "utf8");
  expect(zhText).toContain("导入报告\n");
  expect(zhText).toContain("状态: 已完成");
});
