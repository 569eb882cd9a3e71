import type { Page, Request } from "@playwright/test";
import { signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// The build watcher lives in the hydrated app, which signed-in readers get; an anonymous
// reader's reading pages are documents without React (decision 024), fresh on every load.

declare global {
  interface Window {
    inkwellMarker?: boolean;
  }
}

/** Document requests the page makes from now on (full page loads). */
function documentLoads(page: Page): Request[] {
  const loads: Request[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document" && request.frame() === page.mainFrame()) loads.push(request);
  });
  return loads;
}

/** Signs a reader in, opens `path` and waits for that page's first build check; returns its answer. */
async function gotoAndWaitForCheck(page: Page, path: string): Promise<unknown> {
  await signedInUser(page, "stale");
  // The page signing in left checks too: it goes first, so every check seen below is the new page's.
  await page.goto("about:blank");
  // The first check runs about a second after start, from the hydrated app.
  const checked = page.waitForResponse((r) => r.url().endsWith("/builds/latest.json"));
  await page.goto(path);
  return (await checked).json();
}

const allBlogs = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All blogs" });

test("after a newer build is out, the next link click loads the whole page", async ({ page }) => {
  await page.route("**/builds/latest.json", (route) =>
    route.fulfill({ json: { buildId: "a-newer-build" }, headers: { "Cache-Control": "no-store" } }),
  );
  await gotoAndWaitForCheck(page, "/");
  await expect(page.locator("html")).toHaveAttribute("data-stale-build", "true");
  await page.evaluate(() => {
    window.inkwellMarker = true;
  });
  const loads = documentLoads(page);
  await allBlogs(page).click();
  await page.waitForURL(/\/posts$/, { waitUntil: "load" });
  expect(loads.map((r) => new URL(r.url()).pathname)).toEqual(["/posts"]);
  expect(await page.evaluate(() => window.inkwellMarker)).toBeUndefined();
});

test("while the build is current, the same click stays a client-side transition", async ({ page }) => {
  const latest = await gotoAndWaitForCheck(page, "/");
  const health = (await (await page.request.get("/healthz")).json()) as { buildId: string };
  expect(latest).toEqual({ buildId: health.buildId });
  await expect(page.locator("html")).not.toHaveAttribute("data-stale-build", "true");
  await page.evaluate(() => {
    window.inkwellMarker = true;
  });
  const loads = documentLoads(page);
  await allBlogs(page).click();
  await page.waitForURL(/\/posts$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => window.inkwellMarker)).toBe(true);
  expect(loads).toEqual([]);
});

test("a chunk that fails to load reloads the page once per path within 10 s", async ({ page }) => {
  const missing = "/assets/chunk-removed-by-a-deploy.js";
  const failChunk = () =>
    page.evaluate((url) => {
      // Unhandled on purpose, like a lazy import in the app.
      setTimeout(() => void import(/* @vite-ignore */ url), 0);
    }, missing);

  await gotoAndWaitForCheck(page, "/posts");
  await page.evaluate(() => {
    window.inkwellMarker = true;
  });
  const loads = documentLoads(page);
  const reloaded = page.waitForEvent("load");
  await failChunk();
  await reloaded;
  expect(loads.map((r) => new URL(r.url()).pathname)).toEqual(["/posts"]);
  expect(await page.evaluate(() => window.inkwellMarker)).toBeUndefined();

  // Again within 10 s: the guard in sessionStorage refuses a second reload.
  await page.waitForResponse((r) => r.url().endsWith("/builds/latest.json"));
  await page.evaluate(() => {
    window.inkwellMarker = true;
  });
  const failed = page.waitForResponse((r) => r.url().endsWith(missing));
  await failChunk();
  await failed;
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => window.inkwellMarker)).toBe(true);
  expect(loads).toHaveLength(1);
  const record = await page.evaluate(() => sessionStorage.getItem("inkwell.reloads"));
  expect(Object.keys(JSON.parse(record ?? "{}"))).toEqual(["/posts"]);
});
