import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// FEDERATION=on is not enough over plain http: the production entry point (without the test
// seam federation.test.ts runs the blog with) serves no federation endpoint at all.

describe(`federation without https (${testDialect()})`, () => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    cleanup = database.cleanup;
    // The production entry point: no test seam, so http is not enough even with FEDERATION=on.
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      FEDERATION: "on",
    });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await cleanup?.();
  });

  it("serves none of the federation endpoints", async () => {
    const host = new URL(server.url).host;
    for (const path of [
      `/.well-known/webfinger?resource=acct:blog@${host}`,
      "/.well-known/nodeinfo",
      "/ap/actors/zh",
    ]) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: "application/activity+json" } });
      await res.arrayBuffer();
      expect(res.status, path).toBe(404);
    }
    const inbox = await fetch(`${server.url}/ap/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: "{}",
    });
    await inbox.arrayBuffer();
    expect(inbox.status).toBe(404);
  });
});
