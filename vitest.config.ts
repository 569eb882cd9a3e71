import { defineConfig } from "vitest/config";
import { readerScript } from "./build-tools/reader-script.ts";

// Unit and integration tests live beside the code; Playwright owns tests/e2e.
const ALL = [
  "app/**/*.test.{ts,tsx}",
  "scripts/**/*.test.ts",
  "build-tools/**/*.test.ts",
  "db/**/*.test.ts",
  "tests/integration/**/*.test.ts",
  "tests/security/**/*.test.ts",
  "tests/faults/**/*.test.ts",
  "bench/**/*.test.ts",
];
// Files that load the machine on purpose (benchmark smoke runs, a soak, servers killed
// under load) and check a deadline while doing it: they run one at a time, after the rest.
const ALONE = ["tests/faults/**/*.test.ts", "bench/**/*.test.ts"];

export default defineConfig({
  // root.tsx imports the reader script's URL (query-budget.test.ts loads the root).
  plugins: [readerScript()],
  test: {
    exclude: ["tests/e2e/**", "node_modules/**", "build/**"],
    environment: "node",
    globalSetup: ["tests/setup/global-build.ts"],
    // Ceilings, not targets: a hook that starts a server waits up to 60 s for it on a busy
    // machine (tests/setup/server-process.ts), and a CLI import that takes 6 s on a quiet
    // machine took 19 s next to the browser suite.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    projects: [
      {
        extends: true,
        // Most files spend much of their time waiting on a server, a database or a timer:
        // two at a time keep both cores busy (every file has its own database and ports).
        test: {
          name: "parallel",
          include: ALL,
          exclude: [...ALONE, "tests/e2e/**", "node_modules/**", "build/**"],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
