import { describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Insights through the server: cached reads count like rendered ones, our own source tag
// is counted but never makes another cached copy, bots are skipped, the proxy's country
// header is read when configured, and what was counted is written when the server stops.

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

async function get(url: string, headers: Record<string, string>): Promise<{ status: number; cache: string | null }> {
  const res = await fetch(url, { headers: { "User-Agent": BROWSER, ...headers } });
  await res.arrayBuffer();
  return { status: res.status, cache: res.headers.get("x-render-cache") };
}

describe(`insights through the server (${testDialect()})`, () => {
  it("counts cached and rendered reads, sources, countries and 404s, and skips bots", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      INSIGHTS_COUNTRY_HEADER: "CF-IPCountry",
    });
    const opened = openDatabase(parseDatabaseUrl(database.url, dataDir));
    try {
      const id = await createPost(opened.db, {
        slug: "read",
        authorId: null,
        status: "published",
        publishedAt: "2026-11-01T00:00:00.000Z",
        translations: [{ locale: "en", title: "Read" }],
      });
      const page = `${server.url}/en/posts/detail/${id}`;
      expect(await get(page, { Referer: "https://www.bing.com/search?q=read" })).toEqual({
        status: 200,
        cache: "miss",
      });
      // The source tag: the same cached page, counted as a newsletter reader.
      expect(await get(`${page}?utm_source=newsletter`, { "CF-IPCountry": "FR" })).toEqual({
        status: 200,
        cache: "hit",
      });
      expect((await get(page, { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" })).status).toBe(200);
      expect((await get(`${server.url}/en/no-such-page`, { Referer: `${server.url}/en` })).status).toBe(404);
      const { code } = await server.stop("SIGTERM");
      expect(code).toBe(0);
      const rows = await opened.db.selectFrom("insightCounts").select(["metric", "key", "count"]).execute();
      const counts = Object.fromEntries(rows.map((r) => [`${r.metric} ${r.key}`, Number(r.count)]));
      expect(counts).toMatchObject({
        "views ": 2,
        [`post ${id}`]: 2,
        "page post": 2,
        "lang en": 2,
        "referrer Bing": 1,
        "source newsletter": 1,
        "country FR": 1,
        "notFound /en/no-such-page ← (self)": 1,
      });
      const visitors = await opened.db.selectFrom("insightVisitors").select("hash").execute();
      expect(visitors).toHaveLength(1);
    } finally {
      await server.stop("SIGKILL");
      await opened.close();
      await database.cleanup();
    }
  });
});
