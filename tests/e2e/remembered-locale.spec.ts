import { expect, test } from "./fixtures.ts";

// Issue 49: a reader who opens a /zh/… page and then types a bare address (or follows an old
// link without a prefix) stays in Chinese; an /en/… page brings them back to English. The
// page's head script sets the same `locale` cookie the language switcher sets.

async function localeCookie(page: import("@playwright/test").Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === "locale")?.value;
}

test("a /zh visit makes bare addresses Chinese, and an /en visit makes them English again", async ({ page }) => {
  // This server answers a browser with no cookie in English (localhost).
  await page.goto("/about");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  expect(await localeCookie(page)).toBeUndefined();

  await page.goto("/zh/about");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect.poll(() => localeCookie(page)).toBe("zh");
  await page.goto("/contact");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");

  await page.goto("/en/privacy");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect.poll(() => localeCookie(page)).toBe("en");
  await page.goto("/contact");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
});

test("a bare page remembers nothing: the language the reader chose stays", async ({ page }) => {
  await page.goto("/zh");
  await expect.poll(() => localeCookie(page)).toBe("zh");
  // A signed-out reader's bare pages, lean and hydrated alike, keep the cookie as it is.
  for (const path of ["/about", "/login", "/posts"]) {
    await page.goto(path);
    await expect(page.locator("html"), path).toHaveAttribute("lang", "zh-CN");
    expect(await localeCookie(page), path).toBe("zh");
  }
});
