import { defineConfig } from "vitest/config";

// Unit and integration tests live beside the code; Playwright owns tests/e2e.
export default defineConfig({
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "scripts/**/*.test.ts",
      "db/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/security/**/*.test.ts",
      "tests/faults/**/*.test.ts",
      "bench/**/*.test.ts",
    ],
    exclude: ["tests/e2e/**", "node_modules/**", "build/**"],
    environment: "node",
    globalSetup: ["tests/setup/global-build.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
