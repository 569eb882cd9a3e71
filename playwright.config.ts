import { defineConfig } from "@playwright/test";
import { SERVER_ENTRY } from "./scripts/build-if-stale.js";
import { CHROMIUM_ARGS } from "./scripts/chromium.ts";
import { ceiling } from "./tests/e2e/ceilings.ts";
import { e2eServers } from "./tests/e2e/servers.ts";

// Run through `npm run test:e2e` (scripts/e2e.ts): it builds when stale, finds a
// Chromium, picks free ports and fresh data directories, and passes them here.
const servers = e2eServers();
// By the time their tests took on a loaded run (2026-11-29): the layout sweep, the axe
// pages, the editor, the admin journeys, the wallets.
const LONGEST_FIRST = [
  "layout",
  "a11y",
  "editor",
  "admin-content",
  "admin-fediverse",
  "revisions",
  "admin-users",
  "walletconnect",
  "solana",
].map((name) => `**/${name}.spec.ts`);
const executablePath = process.env.E2E_CHROMIUM || undefined;

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  // One worker per server: each worker talks only to its own server (tests/e2e/fixtures.ts).
  workers: servers.length,
  // One retry, reported: scripts/flaky-reporter.ts names every test that needed it with
  // its first failure and fails the run past two (issue 43). E2E_RETRIES=0 to debug.
  retries: Number(process.env.E2E_RETRIES ?? 1),
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["./scripts/flaky-reporter.ts"]],
  // Ceilings, not targets: up to four servers and browsers share the machine, and an
  // assertion waiting on a page that hashes a password or sends mail can take more
  // than the default 5 s when it is busy.
  timeout: ceiling(60_000),
  expect: {
    timeout: ceiling(10_000),
    // Reference screenshots (tests/e2e/visual.spec.ts) beside their spec, named by the
    // test's own argument only: CI renders with the same Chromium and fonts as we do.
    toHaveScreenshot: { pathTemplate: "{testDir}/{testFilePath}-snapshots/{arg}{ext}" },
  },
  use: {
    // A click or a navigation that never completes fails at its own step (with the
    // page's state in the trace) instead of running into the test's timeout.
    actionTimeout: ceiling(20_000),
    navigationTimeout: ceiling(30_000),
    // Overridden per worker by the fixtures; this is the first server.
    baseURL: `http://127.0.0.1:${servers[0]?.port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [...CHROMIUM_ARGS],
    },
  },
  // The files with the longest tests are queued first: four workers then finish at about
  // the same time, instead of one running a two-minute sweep alone at the end.
  projects: [
    { name: "chromium-long", testMatch: LONGEST_FIRST, use: { browserName: "chromium" } },
    { name: "chromium", testIgnore: LONGEST_FIRST, use: { browserName: "chromium" } },
  ],
  webServer: servers.map(({ port, dataDir }) => ({
    command: `node ${SERVER_ENTRY}`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      MAIL_RATE_PER_MINUTE: "100000",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: process.env.E2E_SMTP_URL ?? "",
      MAIL_FROM: "Inkwell <blog@example.test>",
      ADMIN_EMAILS: "admin@example.test",
      LOG_REQUESTS: "false",
      // Every browser test signs in from 127.0.0.1; the limits themselves are tested
      // against a server with the default limits (tests/integration).
      RATE_LIMIT_MULTIPLIER: "50",
      // Specs write rows straight into the database and expect the next page to show
      // them; the render cache only sees writes made through the app. It has its own
      // tests (tests/integration/render-cache.test.ts, tests/e2e/render-cache.spec.ts).
      RENDER_CACHE: "false",
      OIDC_TEST_DISCOVERY_URL: process.env.E2E_OIDC_DISCOVERY_URL ?? "",
      OIDC_TEST_CLIENT_ID: process.env.E2E_OIDC_CLIENT_ID ?? "",
      OIDC_TEST_CLIENT_SECRET: process.env.E2E_OIDC_CLIENT_SECRET ?? "",
    },
  })),
});
