import { bumpContentVersion, CONTENT_VERSION_POLL_MS } from "../../app/server/cache/content-version.server.ts";
import { type OpenDatabase, openDatabase } from "../../app/server/db/db.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { expect, test } from "./fixtures.ts";

// Pages served from the render cache work in a real browser: the stored HTML gets
// this response's CSP nonce (a mismatch would block the reader script and log CSP
// errors, which fail the test). Anonymous readers' pages are lean documents (decision 024).
// The shared e2e server runs without the cache; this file starts its own.

let server: ServerProcess;
let database: OpenDatabase;
let first: string;
let second: string;

test.beforeAll(async () => {
  const dataDir = tempDataDir();
  server = await startServer({
    DATA_DIR: dataDir,
    LOG_REQUESTS: "false",
    LOG_LEVEL: "error",
    PUBLIC_URL: "http://127.0.0.1",
    RENDER_CACHE: "true",
  });
  database = openDatabase({ dialect: "sqlite", file: `${dataDir}/inkwell.db` });
  first = await createPost(database.db, {
    slug: "cache-one",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [{ locale: "en", title: "Cached in the browser", bodyHtml: "<p>Served from memory.</p>" }],
  });
  second = await createPost(database.db, {
    slug: "cache-two",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-02T00:00:00.000Z",
    translations: [{ locale: "en", title: "The newer post", bodyHtml: "<p>Newer.</p>" }],
  });
  await bumpContentVersion(database.db);
  // Let the server take in the new version (it polls), so its cache stays put from here on.
  await new Promise((resolve) => setTimeout(resolve, 2.5 * CONTENT_VERSION_POLL_MS));
});

test.afterAll(async () => {
  await server?.stop("SIGKILL");
  await database?.close();
});

test("a cached page runs the reader script with its own nonce, and links load the next document", async ({ page }) => {
  const url = `${server.url}/posts/detail/${first}`;
  // Until this instance has taken in the new content version, pages are not kept.
  await expect
    .poll(async () => (await page.request.get(url)).headers()["x-render-cache"], { timeout: 5000 })
    .toBe("hit");

  const response = await page.goto(url);
  expect(response?.headers()["x-render-cache"]).toBe("hit");
  const nonce = /'nonce-([^']+)'/.exec(response?.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce).toBeTruthy();
  const html = (await response?.text()) ?? "";
  expect(html).toContain(`defer="" nonce="${nonce}"`);
  expect(html).toContain(`<script type="speculationrules" nonce="${nonce}">`);
  await expect(page.getByRole("heading", { level: 1, name: "Cached in the browser" })).toBeVisible();
  // The reader script ran (a blocked script would log a CSP error, which fails the test):
  // it says whether the theme toggle is pressed.
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("aria-pressed", /^(true|false)$/);
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);

  // The "newer post" link loads a document (no React to make it a client-side transition;
  // Speculation Rules may have prerendered it): the marker does not survive.
  await page.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 42;
  });
  await page
    .getByRole("link", { name: /The newer post/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/posts/detail/${second}$`));
  await expect(page.getByRole("heading", { level: 1, name: "The newer post" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBeUndefined();
});
