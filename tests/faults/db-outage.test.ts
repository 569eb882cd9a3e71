import { describe, expect, it } from "vitest";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { startRelay } from "../setup/tcp-relay.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

async function get(server: ServerProcess, path: string) {
  const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), text: await res.text() };
}

describe("the database going away", () => {
  it.runIf(testDialect() === "postgres")(
    "answers 503 with Retry-After while PostgreSQL is unreachable, stays up, and recovers by itself",
    async () => {
      const dataDir = tempDataDir();
      const database = await createServerDatabaseUrl(dataDir);
      const direct = new URL(database.url);
      const relay = await startRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaRelay = new URL(database.url);
      viaRelay.host = `127.0.0.1:${relay.port()}`;
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: viaRelay.toString(), RENDER_CACHE: "false" });
      try {
        expect((await get(server, "/")).status).toBe(200);

        await relay.cut();
        for (const path of ["/", "/posts/page/2", "/login", "/search?q=x"]) {
          const reply = await get(server, path);
          expect(reply.status, path).toBe(503);
          expect(reply.retryAfter, path).toBe("5");
          expect(reply.text, path).toContain("Briefly unavailable");
        }
        // A form post gets the same answer, not a 500.
        const login = await fetch(`${server.url}/login`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
          body: "email=a%40example.test&password=whatever-long",
          redirect: "manual",
        });
        expect(login.status).toBe(503);
        expect((await get(server, "/healthz")).status).toBe(503);
        expect(server.proc.exitCode).toBeNull();

        await relay.restore();
        const back = Date.now();
        for (;;) {
          if ((await get(server, "/")).status === 200) break;
          if (Date.now() - back > 5000) throw new Error("not serving again within 5 s of the database's return");
          await new Promise((r) => setTimeout(r, 100));
        }
        expect((await get(server, "/login")).status).toBe(200);
        expect(server.output()).not.toContain("unhandled request error");
      } finally {
        await server.stop("SIGKILL");
        await relay.close();
        await database.cleanup();
      }
    },
  );
});
