import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { type OpenDatabase, openDatabase } from "../../app/server/db/db.server.ts";
import { type E2EServer, serverFor } from "./servers.ts";

export interface WorkerFixtures {
  /** This worker's own server (scripts/e2e.ts may start several, one per worker). */
  e2eServer: E2EServer & { url: string };
}

export interface Fixtures {
  /** Console errors matching one of these are expected by the test (e.g. a 404 document). */
  expectedConsoleErrors: RegExp[];
  /** Fails the test on any console.error or uncaught page error. */
  consoleGuard: undefined;
  /** The e2e server's own database (the same SQLite file it serves from). */
  serverDb: OpenDatabase;
}

/** True once React has hydrated the page (the root sets the flag), or when the page has no React at all. */
function isHydrated(): boolean {
  return document.documentElement.dataset.hydrated === "true" || !("__reactRouterContext" in window);
}

/**
 * Makes `page.goto` also wait for hydration. On a loaded machine the load event
 * can come seconds before React takes over, and a click in between would be a
 * plain form post or link instead of the app's own handling.
 */
export function waitForHydrationOnGoto(page: Page): void {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await page.waitForFunction(isHydrated, undefined, { timeout: 20_000 });
    return response;
  };
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  e2eServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
    async ({}, use, workerInfo) => {
      await use(serverFor(workerInfo.parallelIndex));
    },
    { scope: "worker" },
  ],
  baseURL: async ({ e2eServer }, use) => {
    await use(e2eServer.url);
  },
  // Every page of the test's context, the default one included, waits for hydration on goto.
  context: async ({ context }, use) => {
    context.on("page", waitForHydrationOnGoto);
    await use(context);
  },
  expectedConsoleErrors: [[], { option: true }],
  consoleGuard: [
    async ({ page, expectedConsoleErrors }, use) => {
      const problems: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        const text = msg.text();
        // Form errors are 4xx answers by design; the browser logs each one. 5xx still fails.
        if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
        if (!expectedConsoleErrors.some((re) => re.test(text))) problems.push(`console.error: ${text}`);
      });
      page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
      await use(undefined);
      expect(problems, "the browser reported errors").toEqual([]);
    },
    { auto: true },
  ],
  serverDb: async ({ e2eServer }, use) => {
    const database = openDatabase({ dialect: "sqlite", file: path.resolve(e2eServer.dataDir, "inkwell.db") });
    await use(database);
    await database.close();
  },
});

export { expect };
