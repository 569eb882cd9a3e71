import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { createContentChanges } from "../cache/content-changes.server.ts";
import { createRenderCache } from "../cache/render-cache.server.ts";
import { nowIso } from "../db/db.server.ts";
import { createRedirectMap, type RedirectMap } from "../redirects/map.server.ts";
import { getRedirect, redirectsForExport, saveRedirect } from "../redirects/redirects.server.ts";
import { serveRedirects } from "./redirects.server.ts";

// The redirects step in front of a stand-in for everything after it (cached pages, static
// files, React Router): whatever reaches the stand-in was not redirected.
let database: TestDatabase;
let map: RedirectMap;
let url: string;
let close: () => Promise<void>;
const loadErrors: unknown[] = [];

async function plant(fromPath: string, toPath: string, extra: { status?: number; external?: number } = {}) {
  const now = nowIso();
  await database.db
    .insertInto("redirects")
    .values({ id: `r-${fromPath}`, fromPath, toPath, createdAt: now, updatedAt: now, ...extra })
    .execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db.transaction().execute(async (trx) => {
    const base = { status: 301 as const, external: false };
    await saveRedirect(trx, { ...base, fromPath: "/old-post", fromQuery: "", to: "/posts/detail/p1" });
    await saveRedirect(trx, { ...base, fromPath: "/", fromQuery: "p=123", to: "/posts/detail/p2", status: 302 });
    await saveRedirect(trx, { ...base, fromPath: "/2020/你好", fromQuery: "", to: "/posts/detail/p3#top" });
    await saveRedirect(trx, { ...base, fromPath: "/tag/chinese", fromQuery: "", to: "/tags/中文" });
  });
  // Rows written past the checks (by hand, an older version): never answered.
  await plant("/evil", "//evil.example/x");
  await plant("/evil2", "https://evil.example/x");
  await plant("/admin", "/posts/detail/p1");
  map = createRedirectMap(db, { intervalMs: 60_000, onError: (error) => loadErrors.push(error) });
  const app = express();
  app.use(serveRedirects(map));
  app.use((req, res) => {
    res.status(200).type("text/plain").send(`routed ${req.method} ${req.originalUrl}`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});

afterAll(async () => {
  await close();
  await map.stop();
  await database.cleanup();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, { redirect: "manual", ...init });

describe(`the redirects step (${testDialect()})`, () => {
  it("answers 301 or 302 with the Location before anything after it runs", async () => {
    const moved = await get("/old-post");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/posts/detail/p1");
    expect(await moved.text()).not.toContain("routed");
    // Case, a trailing slash and the request's query (carried over) make no difference.
    const carried = await get("/Old-Post/?utm_source=feed");
    expect(carried.status).toBe(301);
    expect(carried.headers.get("location")).toBe("/posts/detail/p1?utm_source=feed");
    const byQuery = await get("/?p=123");
    expect(byQuery.status).toBe(302);
    expect(byQuery.headers.get("location")).toBe("/posts/detail/p2");
    const encoded = await get("/2020/%E4%BD%A0%E5%A5%BD/");
    expect(encoded.status).toBe(301);
    expect(encoded.headers.get("location")).toBe("/posts/detail/p3#top");
    // A target with Chinese in it goes out percent-encoded (a raw one cannot be a header).
    const chinese = await get("/tag/chinese");
    expect(chinese.headers.get("location")).toBe("/tags/%E4%B8%AD%E6%96%87");
    const chineseData = await get("/tag/chinese.data");
    expect(chineseData.headers.get("x-remix-redirect")).toBe("/tags/%E4%B8%AD%E6%96%87");
    const head = await get("/old-post", { method: "HEAD" });
    expect(head.status).toBe(301);
  });

  it("lets everything else through: other methods, other paths, other queries", async () => {
    expect(await (await get("/old-post", { method: "POST" })).text()).toBe("routed POST /old-post");
    expect(await (await get("/?p=124")).text()).toBe("routed GET /?p=124");
    expect(await (await get("/posts/detail/p1")).text()).toBe("routed GET /posts/detail/p1");
  });

  it("never answers a planted row that leaves the site or takes a path the site keeps", async () => {
    for (const path of ["/evil", "/evil2", "/admin"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe(`routed GET ${path}`);
    }
  });

  it("answers a client-side navigation's .data request the way React Router follows", async () => {
    const res = await get("/old-post.data?_routes=routes%2Fpages%2Fnot-found");
    expect(res.status).toBe(204);
    expect(res.headers.get("x-remix-redirect")).toBe("/posts/detail/p1");
    expect(res.headers.get("x-remix-status")).toBe("301");
    expect(res.headers.get("x-remix-reload-document")).toBe("true");
  });

  it("counts hits in memory and writes them in a batch", async () => {
    const [row] = (await redirectsForExport(database.db)).filter((r) => r.from === "/old-post");
    const id = row?.id ?? "";
    await map.flush();
    const before = (await getRedirect(database.db, id))?.hits ?? 0;
    await get("/old-post");
    await get("/OLD-POST/");
    expect(map.pendingHits(id)).toBe(2);
    expect((await getRedirect(database.db, id))?.hits).toBe(before);
    await map.flush();
    const after = await getRedirect(database.db, id);
    expect(after?.hits).toBe(before + 2);
    expect(after?.lastHitAt).not.toBeNull();
  });

  it("serves from memory until a change names redirects, then reads the table again", async () => {
    await database.db.deleteFrom("redirects").where("fromPath", "=", "/old-post").execute();
    await database.db
      .transaction()
      .execute((trx) =>
        saveRedirect(trx, { fromPath: "/brand-new", fromQuery: "", to: "/x", status: 301, external: false }),
      );
    // No query per request: the deleted row still answers, the new one not yet.
    expect((await get("/old-post")).status).toBe(301);
    expect((await get("/brand-new")).status).toBe(200);
    map.forget(["post:p1"]);
    expect((await get("/brand-new")).status).toBe(200);
    map.forget(["redirects"]);
    expect((await get("/brand-new")).status).toBe(301);
    expect((await get("/old-post")).status).toBe(200);
    expect(loadErrors).toEqual([]);
  });

  it("reloads when another instance's change reaches this one through the content version", async () => {
    const bumps: unknown[] = [];
    const content = createContentChanges({
      db: database.db,
      renderCache: createRenderCache(1_000_000),
      version: { bump: async (tags) => void bumps.push(tags), read: async () => 1, changes: async () => [] },
      log: pino({ level: "silent" }),
      alsoForget: (tags) => map.forget(tags),
    });
    await database.db
      .transaction()
      .execute((trx) =>
        saveRedirect(trx, { fromPath: "/from-elsewhere", fromQuery: "", to: "/y", status: 301, external: false }),
      );
    expect((await get("/from-elsewhere")).status).toBe(200);
    // What the version watcher calls when it sees someone else's change.
    content.forgetLocal(["redirects"]);
    expect((await get("/from-elsewhere")).status).toBe(301);
    // This instance's own admin write: the same, and the other instances are told.
    await database.db.deleteFrom("redirects").where("fromPath", "=", "/from-elsewhere").execute();
    await content.changed(["redirects"]);
    expect(bumps).toEqual([["redirects"]]);
    expect((await get("/from-elsewhere")).status).toBe(200);
  });
});
