import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// Uploads in the browser: a cover and an inline image from the post editor, shown
// with srcset on the post; the media library lists them with where they are used,
// refuses to delete an image in use, and uploads on its own.

const writers: string[] = [];
const TITLE = `Media e2e ${Date.now().toString(36)}`;

test.afterAll(async ({ serverDb }) => {
  if (writers.length === 0) return;
  const authors = serverDb.db.selectFrom("users").select("id").where("email", "in", writers);
  const uploaded = serverDb.db.selectFrom("media").select("id").where("uploadedBy", "in", authors);
  await serverDb.db.deleteFrom("posts").where("authorId", "in", authors).execute();
  await serverDb.db.deleteFrom("media").where("id", "in", uploaded).execute();
});

async function photo(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

async function admin(page: Page, serverDb: Parameters<typeof signedInAdmin>[1], tag: string) {
  const email = await signedInAdmin(page, serverDb, tag);
  writers.push(email);
  return email;
}

test("an admin uploads a cover and an inline image in the editor; the post shows them with srcset", async ({
  page,
  serverDb,
}) => {
  await admin(page, serverDb.db, "media-writer");
  await page.goto("/posts/createPost");
  await page.getByRole("tabpanel", { name: "English" }).getByLabel("Title", { exact: true }).fill(TITLE);
  await expect(page.getByRole("tabpanel", { name: "English" }).locator(".cm-content")).toBeVisible();

  await page.locator("[data-editor-bar]").getByRole("button", { name: "Settings" }).click();
  await page.getByTestId("upload-image").setInputFiles({
    name: "mountain-lake.jpg",
    mimeType: "image/jpeg",
    buffer: await photo(1400, 700, "#2f6fb0"),
  });
  await expect(page.getByText("Uploaded mountain-lake.jpg (1400 × 700).")).toBeVisible();
  await expect(page.getByLabel("Cover image URL")).toHaveValue(/^\/media\/[0-9a-z]{20}\/image\.jpg$/);
  await page.getByLabel("Cover image description (alt text)").fill("A lake below a mountain");

  await page.getByTestId("insert-image-enBody").setInputFiles({
    name: "inline_chart.jpg",
    mimeType: "image/jpeg",
    buffer: await photo(800, 400, "#b02f2f"),
  });
  // The editor asks for the image's description, then puts it on a paragraph of its own.
  await page.getByLabel("Describe the image for people who cannot see it (alt text)").fill("inline chart");
  await page.getByRole("button", { name: "Insert image", exact: true }).click();
  const body = page.getByRole("tabpanel", { name: "English" }).locator(".cm-content");
  await expect(body).toContainText("![inline chart](/media/");

  await page.getByRole("button", { name: "Publish…" }).click();
  await page.getByRole("dialog", { name: "Publish this post?" }).getByRole("button", { name: "Publish now" }).click();
  await expect(page).toHaveURL(/\/posts\/edit\/[0-9a-z]{20}$/);
  const id = page.url().split("/").pop() ?? "";

  await page.goto(`/posts/detail/${id}`);
  const cover = page.locator("figure img").first();
  await expect(cover).toHaveAttribute("srcset", /\/media\/[0-9a-z]{20}\/320\.webp 320w, .*1400\.webp 1400w$/);
  await expect(cover).toHaveAttribute("width", "1400");
  await expect(cover).toHaveAttribute("height", "700");
  expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const inline = page.locator("article img[alt='inline chart']");
  await expect(inline).toHaveAttribute("srcset", /320\.webp 320w/);
  await expect(inline).toHaveAttribute("width", "800");
  await expect(inline).toHaveAttribute("loading", "lazy");

  // The library lists both, used by the post, and will not delete them.
  await page.goto("/admin/media?q=mountain");
  const row = page.getByRole("row", { name: /mountain-lake\.jpg/ });
  await expect(row.getByRole("link", { name: `post “${TITLE}”` })).toBeVisible();
  await row.locator("details summary").click();
  await row.getByRole("link", { name: "Delete “mountain-lake.jpg”" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("alert")).toContainText("is still used in 1 place(s)");
  await expect(page.getByRole("row", { name: /mountain-lake\.jpg/ })).toBeVisible();
});

test("the media library uploads, shows metadata, deletes an unused image, in English and Chinese", async ({
  page,
  serverDb,
}) => {
  await admin(page, serverDb.db, "media-librarian");
  await page.goto("/admin/media");
  await expect(page.getByRole("link", { name: "Media", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByLabel("Image file").setInputFiles({
    name: "library-only.jpg",
    mimeType: "image/jpeg",
    buffer: await photo(500, 500, "#30a060"),
  });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("Uploaded library-only.jpg (500 × 500).")).toBeVisible();
  const row = page.getByRole("row", { name: /library-only\.jpg/ });
  await expect(row).toContainText("Not used");

  // A file that is not an image is refused with a clear message.
  await page.getByLabel("Image file").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("just text"),
  });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("This file is not an image we accept.", { exact: false })).toBeVisible();

  await row.getByRole("link", { name: "Details of “library-only.jpg”" }).click();
  const details = page.getByRole("region", { name: "Details of “library-only.jpg”" });
  await expect(details).toContainText("md5Hash");
  await expect(details).toContainText("image/jpeg");

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);

  await page.context().addCookies([{ name: "locale", value: "zh", url: page.url() }]);
  await page.goto("/admin/media");
  await expect(page.getByRole("heading", { level: 1, name: "媒体库" })).toBeVisible();
  await page.context().addCookies([{ name: "locale", value: "en", url: page.url() }]);

  await page.goto("/admin/media?q=library-only");
  await page
    .getByRole("row", { name: /library-only\.jpg/ })
    .locator("details summary")
    .click();
  await page.getByRole("link", { name: "Delete “library-only.jpg”" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Image deleted.")).toBeVisible();
  await expect(page.getByRole("row", { name: /library-only\.jpg/ })).toHaveCount(0);
});
