import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, dropServerDatabase, testDialect } from "../setup/test-db.ts";

/** fetch, with the body read to the end: an unread stream errors when its server stops later. */
async function drained(url: string): Promise<Response> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

describe(`production server (${testDialect()})`, () => {
  let server: ServerProcess;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

  beforeAll(async () => {
    dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, BODY_LIMIT_BYTES: "65536" });
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.cleanup();
  });

  it("serves the home page with a lang attribute", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toMatch(/<html lang="(en-US|zh-CN)"/);
  });

  it("sends a nonce CSP that matches every inline script, and the other security headers", async () => {
    const res = await fetch(`${server.url}/`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline' 'nonce");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-powered-by")).toBeNull();
    // A new nonce every time.
    const again = (await drained(`${server.url}/`)).headers.get("content-security-policy");
    expect(again).not.toBe(csp);
  });

  it("does not let an untrusted client choose its request id", async () => {
    const res = await fetch(`${server.url}/`, { headers: { "x-request-id": "spoofed-id" } });
    expect(res.headers.get("x-request-id")).not.toBe("spoofed-id");
  });

  it("answers unknown paths with 404 and the spec's message", async () => {
    const res = await fetch(`${server.url}/no/such/page`, { headers: { cookie: "locale=en" } });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page not found: /no/such/page");
  });

  it("keeps the reader's language when an action fails before the loaders run", async () => {
    const res = await fetch(`${server.url}/no/such/page`, {
      method: "POST",
      headers: { cookie: "locale=en", origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<html lang="en-US"');
    expect(html).toContain("Page not found: /no/such/page");
  });

  it("answers React Router data requests for unknown paths with 404 too", async () => {
    const res = await fetch(`${server.url}/no/such/page.data`);
    expect(res.status).toBe(404);
  });

  it("reports health as JSON", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "ok", db: "ok" });
    expect(typeof body.version).toBe("string");
    expect(body.buildId).toMatch(/^\w+$/);
  });

  it("compresses HTML with brotli or gzip as the client asks", async () => {
    const br = await raw(`${server.url}/`, { headers: { "accept-encoding": "br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    const gzip = await raw(`${server.url}/`, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const plain = await raw(`${server.url}/`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("<!DOCTYPE html>");
  });

  it("serves hashed assets immutable for a year", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = /(?:href|src)="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const res = await fetch(`${server.url}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("serves the default social image and the favicon", async () => {
    const social = await fetch(`${server.url}/social.jpg`);
    expect(social.status).toBe(200);
    expect(social.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await social.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    expect((await drained(`${server.url}/favicon.svg`)).headers.get("content-type")).toMatch(/^image\/svg\+xml/);
  });

  it("refuses a declared body over the limit with 413 before reading it", async () => {
    const res = await raw(`${server.url}/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(10 * 1024 * 1024) },
    }).catch((e: Error) => ({ status: -1, error: e }));
    // Either a 413 answer or the connection cut after it; never a 2xx or a 500.
    if (res.status !== -1) expect(res.status).toBe(413);
  });

  it("lets the sender of a too-large body read its 413, and keeps the connection for the next request", async () => {
    // Closing with the body unread reset the connection, and clients lost the 413 (EPIPE).
    const socket = connect(server.port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    let response = "";
    socket.on("data", (d: Buffer) => {
      response += d.toString();
    });
    const body = "x".repeat(256 * 1024);
    socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body);
    socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const statuses = () => [...response.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
    for (let i = 0; i < 100 && statuses().length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    expect(statuses()).toEqual(["413", "200"]);
  });

  it("answers HEAD without a body", async () => {
    const res = await raw(`${server.url}/`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });

  it("shows a plain 500 page without internals when a query fails", async () => {
    // Break the schema behind the server's back: the home loader's query fails.
    const db = openDatabase(parseDatabaseUrl(database.url, dataDir)).db;
    await sql`alter table "postTranslations" rename to "brokenTranslations"`.execute(db);
    try {
      // A query string of its own: the page must render now, not come from the render cache.
      const res = await fetch(`${server.url}/?fresh=${Date.now()}`, { headers: { cookie: "locale=en" } });
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain("Internal server error");
      expect(html).not.toMatch(/postTranslations|no such table|does not exist|\bat .*\.js:\d+:\d+/);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await sql`alter table "brokenTranslations" rename to "postTranslations"`.execute(db);
      await db.destroy();
    }
    expect((await drained(`${server.url}/`)).status).toBe(200);
  });
});

describe("start-up and shutdown", () => {
  it("stops with one line naming an invalid variable", async () => {
    const server = await startServer({ DATA_DIR: tempDataDir(), PUBLIC_URL: "not a url" }, { waitReady: false });
    const { code } = await server.exited;
    expect(code).toBe(1);
    const lines = server.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^inkwell: cannot start: PUBLIC_URL: /);
  });

  it("applies migrations at start, once, and keeps data across restarts", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    try {
      const first = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url });
      expect((await first.stop()).code).toBe(0);
      const second = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url });
      expect(second.output()).not.toContain("applied database migrations");
      expect((await drained(`${second.url}/`)).status).toBe(200);
      expect((await second.stop()).code).toBe(0);
      if (database.dialect === "sqlite") {
        expect(path.basename(database.url)).toBe("inkwell.db");
      }
    } finally {
      await database.cleanup();
    }
  });

  it("on SIGTERM closes keep-alive connections, refuses new ones, and exits 0 within 10 s", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url });
    try {
      // An idle keep-alive connection must not hold the process open.
      const socket = connect(server.port, "127.0.0.1");
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      let response = "";
      socket.on("data", (d: Buffer) => {
        response += d.toString();
      });
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await new Promise((r) => setTimeout(r, 300));
      expect(response).toMatch(/^HTTP\/1\.1 200 /);
      const stopping = server.stop("SIGTERM");
      await closed;
      const { code, ms } = await stopping;
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      await server.stop("SIGKILL");
      await database.cleanup();
    }
  });

  it.runIf(testDialect() === "postgres")("answers /healthz with 503 when PostgreSQL does not answer", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url });
    try {
      await dropServerDatabase(database.url);
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: "unavailable", db: "down" });
    } finally {
      await server.stop("SIGKILL");
      await database.cleanup();
    }
  });
});
