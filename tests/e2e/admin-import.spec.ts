import AxeBuilder from "@axe-core/playwright";
import { zipSync } from "fflate";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

const STAMP = Date.now();
const SLUG = `moving-in-${STAMP}`;
const enc = (text: string) => new TextEncoder().encode(text);

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: leave nothing of this import behind.
  const { db } = serverDb;
  await db.deleteFrom("redirects").where("fromPath", "like", `%${STAMP}%`).execute();
  await db.deleteFrom("posts").where("slug", "like", `%${STAMP}%`).execute();
  await db.deleteFrom("importSources").where("sourceId", "like", `%${STAMP}%`).execute();
  await db.deleteFrom("postImports").where("label", "=", `blog-${STAMP}.zip`).execute();
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
    [`blog/posts/second-${STAMP}.md`]: enc(`---\ntitle: Second ${STAMP}\ndate: 2020-05-07\n---\n\n![gone](gone.png)\n`),
  });
  await signedInAdmin(page, serverDb.db, "import-admin");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
  await page.getByLabel("Zip of the blog folder").setInputFiles({
    name: `blog-${STAMP}.zip`,
    mimeType: "application/zip",
    buffer: Buffer.from(zip),
  });
  await page.getByRole("button", { name: "Check the zip" }).click();

  // The dry run: two posts (one in two languages), a missing image, nothing written yet.
  const dryRun = page.getByRole("region", { name: "What the import would do" });
  await expect(dryRun).toContainText("2 posts found. Nothing has been written yet.");
  await expect(dryRun.locator('[data-count="imported"]')).toHaveText("2");
  await expect(dryRun).toContainText("no such file in the zip (gone.png)");
  const before = await serverDb.db.selectFrom("posts").select("id").where("slug", "=", SLUG).execute();
  expect(before).toEqual([]);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  await page.getByRole("button", { name: "Import now" }).click();
  const job = page.locator("#imports article").first();
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

  // The same page in Chinese.
  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto("/admin/import");
  await expect(page.getByRole("heading", { level: 1, name: "导入" })).toBeVisible();
  await expect(page.getByText("已完成", { exact: true }).first()).toBeVisible();
});
