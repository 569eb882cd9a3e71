import { bumpContentVersion, CONTENT_VERSION_POLL_MS } from "../../app/server/cache/content-version.server.ts";
import { type OpenDatabase, openDatabase } from "../../app/server/db/db.server.ts";
import { createPost } from "../../app/server/repos/posts.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { expect, test } from "./fixtures.ts";

// Pages served from the render cache work in a real browser: the stored HTML gets
// this response's CSP nonce (a mismatch would block React and log CSP errors,
// which fail the test), it hydrates, and client-side navigation uses cached data.
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

test("a cached page hydrates with its own nonce and navigates on the client", async ({ page }) => {
  const url = `${server.url}/posts/detail/${first}`;
  // Until this instance has taken in the new content version, pages are not kept.
  await expect
    .poll(async () => (await page.request.get(url)).headers()["x-render-cache"], { timeout: 5000 })
    .toBe("hit");

  const response = await page.goto(url);
  expect(response?.headers()["x-render-cache"]).toBe("hit");
  await expect(page.getByRole("heading", { level: 1, name: "Cached in the browser" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBe("true");

  // The "newer post" link is a client-side transition (no document request).
  let documents = 0;
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents += 1;
  });
  await page
    .getByRole("link", { name: /The newer post/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/posts/detail/${second}$`));
  await expect(page.getByRole("heading", { level: 1, name: "The newer post" })).toBeVisible();
  expect(documents).toBe(0);
});
