import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet } from "../setup/raw-http.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Compression and caching headers as a browser sees them: hashed assets come
// precompressed (brotli or gzip, as negotiated) with a year of immutable caching;
// pages are compressed on the fly.

describe(`compression and asset caching (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let script: string;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_REQUESTS: "false" });
    const html = (await rawGet(`${server.url}/`)).body.toString();
    script = /\/assets\/[\w.-]+\.js/.exec(html)?.[0] ?? "";
    expect(script).not.toBe("");
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.cleanup();
  });

  it("sends the precompressed asset the browser accepts, with immutable caching", async () => {
    const plain = await rawGet(`${server.url}${script}`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["cache-control"]).toContain("immutable");

    const br = await rawGet(`${server.url}${script}`, { "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.vary).toContain("Accept-Encoding");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length);

    const gz = await rawGet(`${server.url}${script}`, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });

  it("compresses pages as negotiated", async () => {
    const br = await rawGet(`${server.url}/about`, { "accept-encoding": "br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toContain("<!DOCTYPE html>");
    const gz = await rawGet(`${server.url}/about`, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
  });
});
