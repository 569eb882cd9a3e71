import type { Page } from "@playwright/test";

// react-toastify closes a toast when the CSS animation of its progress bar ends, a clock
// that Playwright's page.clock does not hold. On a busy machine more than the toast's 5 s
// can pass between a sign-in and the test's first look at its toast. These hold that clock
// (the bar's animation paused, as hovering does) and let it go again.

const HOLD_ID = "e2e-hold-toast-timers";

/** From the next document on, no toast closes by itself until `releaseToastTimers`. */
export async function holdToastTimers(page: Page): Promise<void> {
  await page.addInitScript((id) => {
    const add = () => {
      if (document.getElementById(id)) return;
      const style = document.createElement("style");
      style.id = id;
      style.textContent = ".Toastify__progress-bar { animation-play-state: paused !important; }";
      document.head.append(style);
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", add);
    else add();
  }, HOLD_ID);
}

/** The toasts of the current document run their timers from now (the next document holds them again). */
export async function releaseToastTimers(page: Page): Promise<void> {
  await page.evaluate((id) => document.getElementById(id)?.remove(), HOLD_ID);
}
