import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures.ts";

const PAGES = [
  "/",
  "/posts/page/1",
  "/login",
  "/register",
  "/forgot-password",
  "/about",
  "/contact",
  "/privacy",
  "/subscribe",
  "/subscribe/confirm?token=x",
  "/unsubscribe?token=x",
  "/no/such/page",
];

for (const locale of ["en", "zh"] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`axe finds no violations (${locale}, ${theme})`, async ({ page }) => {
      // Nine pages, each fully analysed: more than one ordinary test's worth of time.
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: theme });
      for (const path of PAGES) {
        await page.goto(`/${locale}${path === "/" ? "" : path}`);
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
        const results = await new AxeBuilder({ page }).analyze();
        const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        expect(summary, `${locale} ${theme} ${path}`).toEqual([]);
      }
    });
  }
}
