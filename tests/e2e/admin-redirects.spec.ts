import AxeBuilder from "@axe-core/playwright";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

const STAMP = Date.now();
const SLUG = `redirects-${STAMP}`;
const OLD_PATH = `/2019/05/Old-Journey-${STAMP}/`;

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: leave no redirect and no post behind.
  await serverDb.db.deleteFrom("redirects").where("fromPath", "like", `%-${STAMP}`).execute();
  await serverDb.db.deleteFrom("posts").where("slug", "=", SLUG).execute();
});

test("an admin adds a redirect and the old address lands on the new page", async ({ page, serverDb }) => {
  const postId = await createPost(serverDb.db, {
    slug: SLUG,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [{ locale: "en", title: "Journey's end" }],
  });
  await signedInAdmin(page, serverDb.db, "redirects-admin");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Redirects", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Redirects" })).toBeVisible();

  // Field errors from the shared schema: never a redirect off the site.
  await page.getByRole("link", { name: "New redirect" }).click();
  await page.getByLabel("Old path").fill(OLD_PATH);
  await page.getByLabel("New address").fill("//evil.example");
  await page.getByRole("button", { name: "Create redirect" }).click();
  await expect(page.getByText("An address on another site needs")).toBeVisible();

  await page.getByLabel("New address").fill(`/posts/detail/${postId}`);
  await page.getByRole("button", { name: "Create redirect" }).click();
  await expect(page).toHaveURL(/\/admin\/redirects$/);
  const row = page.getByRole("row", { name: new RegExp(`old-journey-${STAMP}`) });
  await expect(row).toContainText(`/posts/detail/${postId}`);
  await expect(row).toContainText("301");

  // The old address, typed by a reader: straight to the post.
  const answer = await page.request.get(OLD_PATH, { maxRedirects: 0 });
  expect(answer.status()).toBe(301);
  expect(answer.headers().location).toBe(`/posts/detail/${postId}`);
  await page.goto(`${OLD_PATH}?ref=old-blog`);
  await expect(page).toHaveURL(new RegExp(`/posts/detail/${postId}\\?ref=old-blog$`));
  await expect(page.getByRole("heading", { level: 1, name: "Journey's end" })).toBeVisible();

  // CSV out and in: the export holds the row; an import reports what it did, line by line.
  const csv = await (await page.request.get("/admin/redirects.csv")).text();
  expect(csv.split("\r\n")[0]).toBe("from,to,status,external,note,source,hits,lastHitAt,createdAt");
  expect(csv).toContain(`/2019/05/old-journey-${STAMP},/posts/detail/${postId},301,0`);
  await page.goto("/admin/redirects");
  await page.getByRole("link", { name: "Import a CSV" }).click();
  await page.getByLabel("CSV file").setInputFiles({
    name: "redirects.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`from,to,status\n/csv-a-${STAMP},/posts/detail/${postId},302\n/admin/x,/y,301\n`),
  });
  await page.getByRole("button", { name: "Import" }).click();
  const report = page.getByRole("status").filter({ hasText: "Import finished" });
  await expect(report).toContainText("1 redirect added");
  await expect(report).toContainText("1 row skipped");
  await expect(report).toContainText("Line 3: “/admin/x” belongs to the site itself.");

  for (const path of ["/admin/redirects", "/admin/redirects/new"]) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }

  // The same section in Chinese.
  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto("/admin/redirects");
  await expect(page.getByRole("heading", { level: 1, name: "重定向" })).toBeVisible();
  await expect(page.getByRole("link", { name: "新建重定向" })).toBeVisible();
});
