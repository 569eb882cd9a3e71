import type { Locator, Page, PageScreenshotOptions } from "@playwright/test";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { createShowcasePost } from "./showcase-post.ts";

// Reference screenshots (issue 25): the header, the style-guide post's first screen and
// the empty editor, compared with a tolerance so an accidental visual change fails here.
// The references in visual.spec.ts-snapshots/ were made with Debian's chromium and
// fonts-noto-cjk, what .ci/run installs; after a deliberate change, update them with
// `node scripts/e2e.ts tests/e2e/visual.spec.ts --update-snapshots` and look at the diff.
//
// Every worker runs other specs first on the same server, so whatever depends on their
// data (view counts, the account's e-mail address) is masked; the post is dated.

/** Up to 1 % of the pixels may differ, each by up to Playwright's default colour distance. */
const TOLERANCE = { maxDiffPixelRatio: 0.01, threshold: 0.2 } as const;
const SHOT = { ...TOLERANCE, animations: "disabled", caret: "hide", scale: "css" } as const;

const LOCALES = ["en", "zh"] as const;

let postId: string | null = null;

test.afterAll(async ({ serverDb }) => {
  if (postId) await serverDb.db.deleteFrom("posts").where("id", "=", postId).execute();
  postId = null;
});

/** Fonts in, the pictures on screen decoded, the pointer away from anything with a hover style. */
async function settle(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(async () => {
    await document.fonts.ready;
    const onScreen = [...document.images].filter((img) => img.getBoundingClientRect().top < window.innerHeight);
    await Promise.all(onScreen.map((img) => img.decode().catch(() => undefined)));
  });
}

async function open(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await settle(page);
}

const header = (page: Page): Locator => page.getByTestId("site-header");

test("the header, signed out, at 1280 and 390 px in both languages", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  for (const locale of LOCALES) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await open(page, `/${locale}`);
      await expect(header(page)).toHaveScreenshot(`header-${locale}-${width}.png`, SHOT);
    }
  }
});

test("the style-guide post's first screen at 1280 px, both languages, light and dark", async ({ page, serverDb }) => {
  postId ??= await createShowcasePost(serverDb.db, "visual");
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const locale of LOCALES) {
      await open(page, `/${locale}/posts/detail/${postId}`);
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(scheme === "dark");
      // Each test's reads add to the count.
      await expect(page).toHaveScreenshot(`post-${locale}-${scheme}.png`, {
        ...SHOT,
        mask: [page.getByTestId("view-count")],
      });
    }
  }
});

test("the editor's empty form as an admin at 1280 px (en)", async ({ page, serverDb }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedInAdmin(page, serverDb.db, "visual-editor");
  await open(page, "/en/posts/createPost");
  // CodeMirror replaces each language's textarea once it has loaded.
  await expect(page.locator(".cm-editor")).toHaveCount(2);
  await settle(page);
  await expect(page).toHaveScreenshot("editor-en-1280.png", { ...SHOT, mask: [page.getByTestId("nav-user")] });
});

/** The share of pixels two screenshots differ in, by Playwright's colour distance (YIQ, as pixelmatch). */
function differingShare(page: Page, a: Buffer, b: Buffer, threshold: number): Promise<number> {
  return page.evaluate(
    async ({ a, b, threshold }) => {
      const pixels = async (base64: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${base64}`;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext("2d");
        if (!context) throw new Error("no 2d context");
        context.drawImage(img, 0, 0);
        return context.getImageData(0, 0, canvas.width, canvas.height);
      };
      const [x, y] = await Promise.all([pixels(a), pixels(b)]);
      if (x.width !== y.width || x.height !== y.height) return 1;
      const maxDelta = 35215 * threshold * threshold;
      let differing = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        const [r1, g1, b1] = [x.data[i] ?? 0, x.data[i + 1] ?? 0, x.data[i + 2] ?? 0];
        const [r2, g2, b2] = [y.data[i] ?? 0, y.data[i + 1] ?? 0, y.data[i + 2] ?? 0];
        const dy = (r1 - r2) * 0.29889531 + (g1 - g2) * 0.58662247 + (b1 - b2) * 0.11448223;
        const di = (r1 - r2) * 0.59597799 - (g1 - g2) * 0.2741761 - (b1 - b2) * 0.32180189;
        const dq = (r1 - r2) * 0.21147017 - (g1 - g2) * 0.52261711 + (b1 - b2) * 0.31114694;
        if (0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq > maxDelta) differing++;
      }
      return differing / (x.width * x.height);
    },
    { a: a.toString("base64"), b: b.toString("base64"), threshold },
  );
}

test("the comparison can fail: 8 px more padding in the header is beyond the tolerance", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, "/en");
  const options: PageScreenshotOptions = { animations: "disabled", caret: "hide", scale: "css" };
  const before = await header(page).screenshot(options);
  const again = await header(page).screenshot(options);
  // The same page twice is well within it…
  expect(await differingShare(page, before, again, TOLERANCE.threshold)).toBeLessThanOrEqual(
    TOLERANCE.maxDiffPixelRatio,
  );
  // …and a small change of style is not (px-4 → px-6 moves every item 8 px right).
  await page.addStyleTag({ content: '[data-testid="site-header"] nav { padding-inline: 1.5rem; }' });
  const after = await header(page).screenshot(options);
  expect(await differingShare(page, before, after, TOLERANCE.threshold)).toBeGreaterThan(TOLERANCE.maxDiffPixelRatio);
});
