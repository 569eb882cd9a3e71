import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { parseEnv } from "../platform/env.server.ts";
import { createFederationService, federationStatus } from "./service.server.ts";

describe("federationStatus", () => {
  const https = "https://blog.example";
  it("follows the admin switch when the environment says nothing", () => {
    expect(federationStatus({ federation: null, publicUrl: https }, true)).toEqual({ on: true, reason: "switch-on" });
    expect(federationStatus({ federation: null, publicUrl: https }, false)).toEqual({
      on: false,
      reason: "switch-off",
    });
  });
  it("lets FEDERATION=on|off override the switch", () => {
    expect(federationStatus({ federation: "on", publicUrl: https }, false)).toEqual({ on: true, reason: "env-on" });
    expect(federationStatus({ federation: "off", publicUrl: https }, true)).toEqual({ on: false, reason: "env-off" });
  });
  it("stays off while PUBLIC_URL is not https, unless the test seam allows http", () => {
    const http = "http://127.0.0.1:3000";
    expect(federationStatus({ federation: "on", publicUrl: http }, true)).toEqual({ on: false, reason: "needs-https" });
    expect(federationStatus({ federation: "on", publicUrl: http }, true, true)).toEqual({ on: true, reason: "env-on" });
  });
});

describe(`createFederationService: Fedify on first use (${testDialect()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  const service = (federation: "on" | "off") =>
    createFederationService({
      db: database.db,
      env: parseEnv({
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "inkwell-fed-")),
        PUBLIC_URL: "https://blog.example",
        FEDERATION: federation,
      }),
      log: pino({ level: "silent" }),
      syncIntervalMs: 60_000,
    });

  it("does not load Fedify while federation is off, not even at start", async () => {
    const off = service("off");
    off.start();
    expect(await off.syncPosts()).toEqual({ created: 0, updated: 0, deleted: 0 });
    // start() looks at the switch and the queue on its own; let it finish.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(off.loaded()).toBe(false);
    await off.stop();
  });

  it("loads Fedify once on first use and answers its first request", async () => {
    const on = service("on");
    expect(on.loaded()).toBe(false);
    const [first, second] = await Promise.all([on.load(), on.load()]);
    expect(first).toBe(second);
    expect(on.loaded()).toBe(true);
    const response = await first.fetch(new Request("https://blog.example/.well-known/nodeinfo"), {
      contextData: { db: database.db, postChanged: async () => {} },
    });
    expect(response.status).toBe(200);
    await on.stop();
  });
});
