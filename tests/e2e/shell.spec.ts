import { login, nameOf, PASSWORD, register, verifyFromMail } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe("theme before hydration", () => {
  // The test blocks the app's scripts on purpose; the browser reports each one.
  test.use({ expectedConsoleErrors: [/net::ERR_FAILED/] });

  test("the theme toggle switches to dark, and dark survives a reload before hydration", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/dark/);
    const toggle = page.getByRole("button", { name: "Dark theme" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await toggle.click();
    await expect(html).toHaveClass(/dark/);
    await expect(toggle).toHaveAttribute("aria-pressed", "true");

    // Block the app's scripts: only the inline boot script can set the class now.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.reload();
    await expect(html).toHaveClass(/dark/);
  });
});

test("the theme follows the system preference until the reader chooses", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
});

test("the bar hides after scrolling down past 200 px and returns on scrolling up", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await page.goto("/");
  await page.evaluate(() => {
    document.body.style.minHeight = "4000px";
  });
  const header = page.getByTestId("site-header");
  await page.mouse.wheel(0, 150);
  await page.waitForFunction(() => window.scrollY >= 150);
  await expect(header).toHaveAttribute("data-hidden", "false");
  await page.mouse.wheel(0, 400);
  await page.waitForFunction(() => window.scrollY > 400);
  await expect(header).toHaveAttribute("data-hidden", "true");
  await expect(header).not.toBeInViewport();
  await page.mouse.wheel(0, -100);
  await expect(header).toHaveAttribute("data-hidden", "false");
  await expect(header).toBeInViewport();
});

test("on a phone the menu opens with its button, closes with Escape and on navigation", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 700 });
  await page.goto("/");
  const open = page.getByRole("button", { name: "Open the menu" });
  const allBlogs = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All blogs" });
  await expect(allBlogs).toBeHidden();
  await open.click();
  const close = page.getByRole("button", { name: "Close the menu" });
  await expect(close).toHaveAttribute("aria-expanded", "true");
  await expect(allBlogs).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(allBlogs).toBeHidden();
  await expect(open).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(allBlogs).toBeVisible();
  await allBlogs.click();
  await expect(page).toHaveURL(/\/posts$/);
  await expect(allBlogs).toBeHidden();
});

test("pages answer under /en and /zh with alternates for both languages", async ({ page, baseURL }) => {
  // A list's first page is the list itself (one address per page).
  await page.goto("/zh/posts/page/1");
  await expect(page).toHaveURL(/\/zh\/posts$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { level: 1, name: "全部文章" })).toBeVisible();
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute("href", `${baseURL}/en/posts`);
  await expect(page.locator('link[rel="alternate"][hreflang="zh"]')).toHaveAttribute("href", `${baseURL}/zh/posts`);
  await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute("href", `${baseURL}/posts`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/zh/posts`);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", `${baseURL}/social.jpg`);
  await page.goto("/en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.getByRole("heading", { level: 1, name: "Latest posts" })).toBeVisible();
});

test("page numbers that are not positive integers, or past the end, are 404", async ({ page, serverDb }) => {
  // Other files add posts to this database: work out the last page (10 per page by default).
  const { n } = await serverDb.db
    .selectFrom("posts")
    .where("status", "=", "published")
    .where("deletedAt", "is", null)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const last = Math.max(1, Math.ceil(Number(n) / 10));
  for (const bad of ["0", "-1", "abc", "1e9", "999999999", String(last + 1)]) {
    const response = await page.goto(`/posts/page/${bad}`);
    expect(response?.status(), bad).toBe(404);
  }
  expect((await page.goto(`/posts/page/${last}`))?.status()).toBe(200);
});

test("only admins see the language buttons; switching keeps the page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Read this site in Chinese" })).toHaveCount(0);

  // admin@example.test is in ADMIN_EMAILS for the test server; admin needs a verified e-mail.
  const email = "admin@example.test";
  await register(page, email);
  await login(page, email, PASSWORD);
  await expect(page.getByRole("button", { name: "Read this site in Chinese" })).toHaveCount(0);
  await verifyFromMail(page, email);
  await login(page, email, PASSWORD);
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));

  await page.goto("/en/about");
  await page.getByRole("button", { name: "Read this site in Chinese" }).click();
  await expect(page).toHaveURL(/\/zh\/about$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await page.goto("/");
  // The cookie now says zh.
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await page.getByRole("button", { name: "用英文浏览本站" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page).toHaveURL(/\/$/);
});
