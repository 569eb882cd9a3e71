import { readFile } from "node:fs/promises";
import path from "node:path";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// Issue 48 (decision 035, "Importing pages"): the owner imports the WordPress fixture and finds
// its pages as pages: in the admin's Pages list (not among the posts), at their own addresses in
// both languages, and the old WordPress addresses leading there.

const STAMP = Date.now().toString(36);
const FILE = `wordpress-fixture-${STAMP}.xml`;
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/wordpress/export.xml");
/** The fixture's items (tests/fixtures/wordpress/export.xml), as the import maps them. */
const FIXTURE_IDS = ["20", "30+31", "40", "41", "50", "80+81", "82", "60", "61", "62"];
/** What admin-import.spec.ts imports carries a 13-digit stamp: this file leaves its rows alone. */
const OTHER_SPEC = /\d{13}/;

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: leave nothing of the fixture's import behind.
  const { db } = serverDb;
  const mapped = await db
    .selectFrom("importSources")
    .select(["entity", "sourceId", "targetId"])
    .where("source", "=", "wordpress")
    .execute();
  const mine = mapped.filter((m) => !OTHER_SPEC.test(m.sourceId));
  const ids = (entity: string, only?: string[]) =>
    mine.filter((m) => m.entity === entity && (!only || only.includes(m.sourceId))).map((m) => m.targetId);
  const pages = ids("page", FIXTURE_IDS);
  const posts = ids("post", FIXTURE_IDS);
  if (pages.length > 0) {
    await db.deleteFrom("pageRevisions").where("pageId", "in", pages).execute();
    await db.deleteFrom("pages").where("id", "in", pages).execute();
  }
  if (posts.length > 0) await db.deleteFrom("posts").where("id", "in", posts).execute();
  const authors = ids("author");
  if (authors.length > 0)
    await db.deleteFrom("users").where("id", "in", authors).where("email", "like", "%@authors.invalid").execute();
  const redirects = await db
    .selectFrom("redirects")
    .select(["id", "fromPath", "toPath"])
    .where("source", "=", "import:wordpress")
    .execute();
  const ours = redirects.filter((r) => !OTHER_SPEC.test(r.fromPath) && !OTHER_SPEC.test(r.toPath)).map((r) => r.id);
  if (ours.length > 0) await db.deleteFrom("redirects").where("id", "in", ours).execute();
  for (const m of mine)
    await db
      .deleteFrom("importSources")
      .where("source", "=", "wordpress")
      .where("entity", "=", m.entity)
      .where("sourceId", "=", m.sourceId)
      .execute();
  await db.deleteFrom("postImports").where("label", "=", FILE).execute();
});

test("an owner imports the WordPress fixture and finds its pages as pages", async ({ page, serverDb }) => {
  await signedInAdmin(page, serverDb.db, "import-wp-pages");
  await page.goto("/admin/import");
  await page.getByLabel("Zip of the blog folder, Ghost or WordPress export").setInputFiles({
    name: FILE,
    mimeType: "text/xml",
    buffer: await readFile(FIXTURE),
  });
  await page.getByRole("button", { name: "Check the file" }).click();
  const dryRun = page.getByRole("region", { name: "What the import would do" });
  // The dry run counts the three pages apart from the seven posts.
  await expect(dryRun.locator('[data-count="pages"]')).toHaveText("3");
  await expect(dryRun.locator('[data-count="imported"]')).toHaveText("7");
  await expect(dryRun).toContainText("3 of them are pages: they become pages at their own addresses, not posts.");
  await page.getByRole("button", { name: "Import now" }).click();
  const job = page.locator("#imports article").filter({ hasText: FILE });
  await expect(job.locator('[data-status="done"]')).toBeVisible({ timeout: 30_000 });
  await expect(job.locator('[data-count="pages"]')).toHaveText("3");

  // Where the pages went: their addresses, as the import chose them (the fixture's About page
  // cannot have /about, the site's own).
  const slugOf = async (sourceId: string) => {
    const row = await serverDb.db
      .selectFrom("importSources as s")
      .innerJoin("pages as p", "p.id", "s.targetId")
      .select("p.slug")
      .where("s.source", "=", "wordpress")
      .where("s.entity", "=", "page")
      .where("s.sourceId", "=", sourceId)
      .executeTakeFirstOrThrow();
    return row.slug;
  };
  const visit = await slugOf("80+81");
  const hours = await slugOf("82");
  expect(visit).toMatch(/^visit-us(-\d+)?$/);
  expect(await slugOf("50")).not.toBe("about");

  // In the admin's Pages list, and not among the posts.
  await page.goto("/admin");
  await page.getByRole("link", { name: "Pages", exact: true }).click();
  await expect(page.getByTestId(`page-row-${visit}`)).toContainText("Visit the shop");
  await expect(page.getByTestId(`page-row-${hours}`)).toContainText("Opening hours");
  await page.goto(`/admin/blog?q=${encodeURIComponent("Visit the shop")}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Visit the shop")).toHaveCount(0);

  // At its public address in both languages.
  await page.goto(`/${visit}`);
  await expect(page.getByRole("heading", { level: 1, name: "Visit the shop" })).toBeVisible();
  await expect(page.locator("main strong").filter({ hasText: "taste" })).toBeVisible();
  await page.goto(`/zh/${visit}`);
  await expect(page.getByRole("heading", { level: 1, name: "到店品茶" })).toBeVisible();

  // The old WordPress addresses lead there.
  const old = await page.request.get("/?page_id=80", { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers().location).toBe(`/${visit}`);
  await page.goto("/visit-us/opening-hours/");
  await expect(page).toHaveURL(new RegExp(`/${hours}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Opening hours" })).toBeVisible();
  await page.goto("/zh/dao-dian/");
  await expect(page).toHaveURL(new RegExp(`/zh/${visit}$`));
  await expect(page.getByRole("heading", { level: 1, name: "到店品茶" })).toBeVisible();
});
