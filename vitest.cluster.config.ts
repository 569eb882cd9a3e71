import { defineConfig } from "vitest/config";

// `npm run test:cluster`: several production instances on PostgreSQL behind a proxy.
export default defineConfig({
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/setup/global-build.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
