import AxeBuilder from "@axe-core/playwright";
import { nameOf, signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ serverDb }) => {
  // Other files share this database and expect no slides.
  await serverDb.db.deleteFrom("swapers").execute();
});

test("an admin adds, edits, reorders and deletes slides, and the home page follows", async ({ page, serverDb }) => {
  // A long journey: sign-up, four forms, the home page in two languages.
  test.slow();
  const email = await signedInAdmin(page, serverDb.db, "slides-admin");
  await page.goto("/admin");
  await expect(page.getByRole("navigation", { name: "Admin panel" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

  await page.getByRole("link", { name: "Carousel slides" }).click();
  await expect(page.getByRole("link", { name: "Carousel slides" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No slides yet.")).toBeVisible();

  // Field errors from the shared schema.
  await page.getByRole("link", { name: "New slide" }).click();
  await page.getByLabel("Link (optional)").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Add slide" }).click();
  await expect(page.getByText("Give the image's address.")).toBeVisible();
  await expect(page.getByText("Use an https:// address or a path on this site starting with /.")).toBeVisible();

  await page.getByLabel("Title (English)").fill("Autumn notes");
  await page.getByLabel("Title (中文)").fill("秋日笔记");
  await page.getByLabel("Image URL").fill("/social.jpg");
  await page.getByLabel("Image description (alt text)").fill("Leaves");
  await page.getByLabel("Link (optional)").fill("/about");
  await expect(page.getByRole("figure", { name: "Preview" }).getByRole("img", { name: "Leaves" })).toBeVisible();
  await page.getByRole("button", { name: "Add slide" }).click();
  await expect(page).toHaveURL(/\/admin\/swapers$/);
  await expect(
    page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: "Saved." }).first(),
  ).toBeVisible();

  await page.getByRole("link", { name: "New slide" }).click();
  await page.getByLabel("Title (English)").fill("Winter reading");
  await page.getByLabel("Image URL").fill("/social.jpg");
  await page.getByRole("button", { name: "Add slide" }).click();
  const rows = page.getByRole("row");
  await expect(rows.nth(1)).toContainText("Autumn notes");
  await expect(rows.nth(2)).toContainText("Winter reading");

  // Keyboard-friendly reorder.
  await page.getByRole("button", { name: "Move “Winter reading” up" }).click();
  await expect(rows.nth(1)).toContainText("Winter reading");
  // And with the mouse: drag Autumn onto Winter's place, then back.
  await page.getByTestId("slide-row").filter({ hasText: "Autumn notes" }).dragTo(page.getByTestId("slide-row").first());
  await expect(rows.nth(1)).toContainText("Autumn notes");
  await page
    .getByTestId("slide-row")
    .filter({ hasText: "Winter reading" })
    .dragTo(page.getByTestId("slide-row").first());
  await expect(rows.nth(1)).toContainText("Winter reading");

  // The home page shows both, in this order, in each language.
  await page.goto("/en");
  const carousel = page.getByRole("region", { name: "Featured" });
  await expect(carousel.getByRole("group")).toContainText("Winter reading");
  await page.goto("/zh");
  await carousel
    .or(page.getByRole("region", { name: "精选" }))
    .getByRole("button", { name: "下一张" })
    .click();
  await expect(page.getByRole("region", { name: "精选" }).getByRole("group")).toContainText("秋日笔记");

  // Edit: disable one; it leaves the home page. /en/admin… opens the admin in English (/zh above
  // made Chinese the remembered language).
  await page.goto("/en/admin/swapers");
  await page.getByRole("link", { name: "Edit “Winter reading”" }).click();
  await page.getByLabel("Show this slide").uncheck();
  await page.getByRole("button", { name: "Save slide" }).click();
  await expect(page.getByRole("row").nth(1)).toContainText("Disabled");
  await page.goto("/en");
  await expect(page.getByRole("region", { name: "Featured" }).getByRole("group", { includeHidden: true })).toHaveCount(
    1,
  );

  // Delete asks first.
  await page.goto("/admin/swapers");
  await page.getByRole("link", { name: "Delete “Autumn notes”" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete the slide “Autumn notes”?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByRole("row", { name: /Autumn notes/ })).toHaveCount(0);

  // Every change is in the audit log on the dashboard.
  await page.goto("/admin");
  const log = page.getByRole("table");
  for (const action of ["swaper.create", "swaper.move", "swaper.update", "swaper.delete"]) {
    await expect(log.getByText(action).first()).toBeVisible();
  }
  // The person by their display name, never their address.
  await expect(log.getByText(nameOf(email)).first()).toBeVisible();
  await expect(log.getByText(email)).toHaveCount(0);
});

test("the admin pages pass axe", async ({ page, serverDb }) => {
  await signedInAdmin(page, serverDb.db, "axe-admin");
  for (const path of ["/admin", "/admin/swapers", "/admin/swapers/new"]) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});
