import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures.ts";

// The admin's layout rules (issue 46), measured in the page: nothing wider than the window,
// no control text cut off, a list's filter controls of one height (and one row on a desktop),
// labels that never break inside a word.

/** Nothing on the page is wider than the window. */
export async function expectNoSidewaysScroll(page: Page, where = ""): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll, `page wider than the window ${where}`).toBeLessThanOrEqual(width);
}

/** No visible button, link-as-button, select or summary in the main area cuts its text off. */
export async function expectNoClippedControls(page: Page, where = ""): Promise<void> {
  const clipped = await page.getByRole("main").evaluate((main) =>
    [...main.querySelectorAll<HTMLElement>("button, summary, a.rounded-md")]
      .filter((el) => el.checkVisibility())
      // A visually hidden control (`sr-only`: a form's default submit for Enter) is 1 px on purpose.
      .filter((el) => el.getAttribute("aria-hidden") !== "true" && el.clientWidth > 1)
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent?.trim()),
  );
  expect(clipped, `clipped controls ${where}`).toEqual([]);
  // A select shows its chosen option whole: the text, its padding and the arrow fit.
  const cutSelects = await page.getByRole("main").evaluate((main) =>
    [...main.querySelectorAll<HTMLSelectElement>("select")]
      .filter((el) => el.checkVisibility())
      .filter((el) => {
        const probe = document.createElement("span");
        probe.textContent = el.selectedOptions[0]?.textContent ?? "";
        probe.style.font = getComputedStyle(el).font;
        probe.style.position = "absolute";
        probe.style.whiteSpace = "nowrap";
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        const style = getComputedStyle(el);
        const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
        // The arrow takes about 16 px after the right padding.
        return text + padding + 16 > el.clientWidth;
      })
      .map((el) => el.selectedOptions[0]?.textContent),
  );
  expect(cutSelects, `cut selects ${where}`).toEqual([]);
}

/**
 * A list's filter bar (`data-testid` ending in "-filters"): its search box, selects and
 * buttons share one height, and on a desktop (`oneRow`) one top.
 */
export async function expectAlignedFilters(filters: Locator, oneRow: boolean, where = ""): Promise<void> {
  const boxes = await filters.locator("input[type=search], select, button").evaluateAll((els) =>
    els
      .filter((el) => el.checkVisibility())
      .map((el) => {
        const r = el.getBoundingClientRect();
        return { top: Math.round(r.top), height: Math.round(r.height) };
      }),
  );
  expect(new Set(boxes.map((b) => b.height)).size, `filter heights ${where} ${JSON.stringify(boxes)}`).toBe(1);
  if (oneRow) expect(new Set(boxes.map((b) => b.top)).size, `filter rows ${where} ${JSON.stringify(boxes)}`).toBe(1);
}

/** A label is one line: as tall as one line of its text, never "已发" over "布". */
export async function expectOneLine(label: Locator): Promise<void> {
  const lines = await label.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);
}
