import { expect, test } from "./fixtures.ts";

test("an unknown path answers 404 with the spec's message inside the layout", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("error-message")).toHaveText("Page not found: /no/such/page");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the home page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Latest posts" })).toBeVisible();
});

test("the 404 message is translated and keeps the query string", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "locale", value: "zh", url: baseURL ?? "" }]);
  const response = await page.goto("/missing?x=1");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("error-message")).toHaveText("页面不存在：/missing?x=1");
});

test("a path with markup is shown as text, never as HTML", async ({ page }) => {
  const response = await page.goto("/%3Cimg%20src=x%20onerror=alert(1)%3E");
  expect(response?.status()).toBe(404);
  await expect(page.locator("main img")).toHaveCount(0);
  await expect(page.getByTestId("error-message")).toContainText("Page not found: /");
});
