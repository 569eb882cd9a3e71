import { describe, expect, it } from "vitest";
import {
  barHidden,
  leavesPage,
  NAV_HIDE_AFTER_PX,
  nextTheme,
  SWIPE_PX,
  slideForKey,
  slideForSwipe,
  speculativeShow,
  wrapIndex,
} from "./logic.ts";

describe("the reader script's decisions", () => {
  it("hides the bar scrolling down past 200 px, and shows it going up, near the top or when pinned", () => {
    const past = NAV_HIDE_AFTER_PX + 50;
    expect(barHidden({ hidden: false, lastY: past, y: past + 10, pinned: false })).toBe(true);
    expect(barHidden({ hidden: true, lastY: past + 10, y: past, pinned: false })).toBe(false);
    expect(barHidden({ hidden: true, lastY: past, y: past, pinned: false })).toBe(true);
    expect(barHidden({ hidden: false, lastY: 10, y: NAV_HIDE_AFTER_PX, pinned: false })).toBe(false);
    // The menu open, or focus inside the bar: it stays.
    expect(barHidden({ hidden: false, lastY: past, y: past + 100, pinned: true })).toBe(false);
  });

  it("moves the carousel round the ring by arrow keys and swipes", () => {
    expect(wrapIndex(0, -1, 3)).toBe(2);
    expect(wrapIndex(2, 1, 3)).toBe(0);
    expect(slideForKey("ArrowRight", 2, 3)).toBe(0);
    expect(slideForKey("ArrowLeft", 0, 3)).toBe(2);
    expect(slideForKey("Enter", 1, 3)).toBeNull();
    expect(slideForSwipe(-SWIPE_PX, 0, 3)).toBe(1);
    expect(slideForSwipe(SWIPE_PX + 1, 0, 3)).toBe(2);
    expect(slideForSwipe(SWIPE_PX - 1, 1, 3)).toBe(1);
  });

  it("switches the theme and says what to save", () => {
    expect(nextTheme(false)).toEqual({ dark: true, saved: "dark" });
    expect(nextTheme(true)).toEqual({ dark: false, saved: "light" });
  });

  it("closes the menu only for a click that leaves the page", () => {
    const here = "https://blog.example/en/posts?page=2";
    const link = (href: string, target = "", download = false) => ({ href, target, download });
    expect(leavesPage(link("/en/about"), here, false)).toBe(true);
    expect(leavesPage(link("https://elsewhere.example/"), here, false)).toBe(true);
    expect(leavesPage(link("#main"), here, false)).toBe(false);
    expect(leavesPage(link("/en/posts?page=2#top"), here, false)).toBe(false);
    expect(leavesPage(link("/en/about", "_blank"), here, false)).toBe(false);
    expect(leavesPage(link("/file.zip", "", true), here, false)).toBe(false);
    expect(leavesPage(link("/en/about"), here, true)).toBe(false);
  });

  it("tells the server about a page only when it was loaded speculatively and is shown", () => {
    const page = { prerendering: false, activationStart: 0, deliveryType: "" };
    // An ordinary load: the server counted its GET.
    expect(speculativeShow(page)).toBe("never");
    expect(speculativeShow({ ...page, deliveryType: "cache" })).toBe("never");
    // Prerendering, not shown yet: wait for the activation.
    expect(speculativeShow({ ...page, prerendering: true })).toBe("activation");
    // Prerendered and already shown when the script runs.
    expect(speculativeShow({ ...page, activationStart: 120 })).toBe("now");
    // A navigation answered from a prefetch.
    expect(speculativeShow({ ...page, deliveryType: "navigational-prefetch" })).toBe("now");
  });
});
