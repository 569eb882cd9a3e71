/**
 * The decisions the reader script makes, as plain functions (unit-tested in logic.test.ts);
 * reader.ts wires them to the page. No DOM here and no imports: this file is bundled into
 * the reader script as it is.
 */

/** The bar hides after the reader scrolls down past this many pixels (spec 9). */
export const NAV_HIDE_AFTER_PX = 200;
/** How long a slide stays before the next one, when playing. */
export const SLIDE_INTERVAL_MS = 6_000;
/** A horizontal swipe longer than this (px) changes the slide. */
export const SWIPE_PX = 40;
/** A flash message closes by itself after this long (spec 9: 5000 ms), unless the pointer or focus rests on it. */
export const FLASH_CLOSE_MS = 5_000;
/** The saved theme's key in localStorage (the same as the React toggle's). */
export const THEME_KEY = "theme";

/** The slide after moving `step` from `index` in a ring of `count`. */
export function wrapIndex(index: number, step: number, count: number): number {
  return (((index + step) % count) + count) % count;
}

/**
 * Whether the bar is hidden after a scroll from `lastY` to `y`: hidden going down past the
 * threshold, shown going up, near the top, while the menu is open or focus is inside it.
 */
export function barHidden(state: { hidden: boolean; lastY: number; y: number; pinned: boolean }): boolean {
  if (state.pinned || state.y <= NAV_HIDE_AFTER_PX) return false;
  if (state.y > state.lastY) return true;
  if (state.y < state.lastY) return false;
  return state.hidden;
}

/** The slide a key press moves to, or null when the key is not the carousel's. */
export function slideForKey(key: string, current: number, count: number): number | null {
  if (key === "ArrowLeft") return wrapIndex(current, -1, count);
  if (key === "ArrowRight") return wrapIndex(current, 1, count);
  return null;
}

/** The slide a horizontal swipe of `dx` pixels moves to (left swipe: the next one). */
export function slideForSwipe(dx: number, current: number, count: number): number {
  if (Math.abs(dx) < SWIPE_PX) return current;
  return wrapIndex(current, dx < 0 ? 1 : -1, count);
}

/** The theme to switch to from the current one, and what to save. */
export function nextTheme(dark: boolean): { dark: boolean; saved: "dark" | "light" } {
  return { dark: !dark, saved: dark ? "light" : "dark" };
}

/** Whether a link click leaves the page (so an open menu should close), as the browser would follow it. */
export function leavesPage(
  link: { href: string; target: string; download: boolean },
  here: string,
  modified: boolean,
): boolean {
  if (modified || link.download || (link.target !== "" && link.target !== "_self")) return false;
  const to = new URL(link.href, here);
  const from = new URL(here);
  return !(to.origin === from.origin && to.pathname === from.pathname && to.search === from.search && to.hash !== "");
}

/** The header the server counts a shown page by (app/server/http/read-count.server.ts). */
export const READ_BEACON_HEADER = "X-Inkwell-Read";
/** The shown page's `document.referrer`, which the beacon's own Referer (the page) would hide. */
export const READ_REFERRER_HEADER = "X-Inkwell-Referrer";

/**
 * When the reader script must tell the server a page was shown, because the server counted
 * nothing for it (it was loaded speculatively): "activation" for a page still prerendering
 * (tell when it is shown), "now" for a prerendered page already shown (`activationStart` > 0)
 * or a navigation the browser answered from its prefetch (`deliveryType`), and "never" for an
 * ordinary load, which the server counted already.
 */
export function speculativeShow(page: {
  prerendering: boolean;
  activationStart: number;
  deliveryType: string;
}): "activation" | "now" | "never" {
  if (page.prerendering) return "activation";
  if (page.activationStart > 0 || page.deliveryType === "navigational-prefetch") return "now";
  return "never";
}
