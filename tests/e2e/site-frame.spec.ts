import { expect, test } from "./fixtures.ts";

// Issue 48: on a short page the footer stays at the window's foot instead of floating halfway up.

test("the footer sits at the bottom of the window on a short page, in both languages", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1400 });
  for (const locale of ["en", "zh"] as const) {
    const response = await page.goto(`/${locale}/this-page-does-not-exist`);
    expect(response?.status()).toBe(404);
    const footer = page.getByRole("contentinfo");
    await expect(footer).toBeVisible();
    const box = await footer.boundingBox();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    // No gap under the footer: its bottom is the page's bottom, which is the window's.
    expect(height).toBe(1400);
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(1400);
  }
});
