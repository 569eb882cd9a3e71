import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flashCookie } from "../../app/server/http/flash.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

const AUTH_SECRET = "integration-secret-for-flash-cookies-0123456789";

describe(`build ids and flash messages over HTTP (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let buildId: string;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, AUTH_SECRET });
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { buildId: string };
    buildId = health.buildId;
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.cleanup();
  });

  it("answers /builds/latest.json with the running build id, never cached", async () => {
    expect(buildId).toMatch(/\S/);
    const res = await fetch(`${server.url}/builds/latest.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ buildId });
  });

  it("answers /builds/meta/{id}.json for the current build only", async () => {
    const current = await fetch(`${server.url}/builds/meta/${encodeURIComponent(buildId)}.json`);
    expect(current.status).toBe(200);
    expect(current.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(await current.json()).toMatchObject({ buildId });

    for (const other of ["not-a-build", `${buildId}x`, buildId]) {
      const res = await fetch(
        `${server.url}/builds/meta/${encodeURIComponent(other)}${other === buildId ? "" : ".json"}`,
      );
      expect(res.status, other).toBe(404);
    }
  });

  it("shows a flash message once and clears its cookie, on documents and .data requests", async () => {
    const cookie = flashCookie({ secret: AUTH_SECRET, secure: false }, "info", "flash.signedOut").split(";")[0] ?? "";
    const page = await fetch(`${server.url}/en`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/role="status"[^>]*>You have been signed out\.</);
    expect(page.headers.getSetCookie()).toContain("inkwell.flash=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");

    const data = await fetch(`${server.url}/login.data`, { headers: { cookie } });
    expect(data.status).toBe(200);
    expect(data.headers.getSetCookie()).toContain("inkwell.flash=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
  });

  it("shows nothing for a tampered cookie, and clears it", async () => {
    const cookie =
      flashCookie({ secret: `${AUTH_SECRET}-forged`, secure: false }, "info", "flash.signedOut").split(";")[0] ?? "";
    const page = await fetch(`${server.url}/en`, { headers: { cookie } });
    expect(await page.text()).not.toContain("You have been signed out.");
    expect(page.headers.getSetCookie()).toContain("inkwell.flash=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
  });
});
