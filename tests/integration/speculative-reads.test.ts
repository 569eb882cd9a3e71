import { describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { createAd } from "../../app/server/site/ads.server.ts";
import { startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Speculative loads count nothing; the reader script's beacon (a HEAD with X-Inkwell-Read)
// counts the page once it is shown, as its GET would have; a plain HEAD counts nothing.
// Each request comes from another browser (user agent), so the view counter, which counts a
// visitor once a day, would show any request that counted. Requests that must count nothing
// come from Bing; each one that counts names another referrer, so Insights shows which counted.

/** Another visitor each time: a view is counted once per visitor and post a day. */
let visitor = 0;
function browser(): string {
  visitor += 1;
  return `Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.${visitor}`;
}

const PREFETCH = { "Sec-Purpose": "prefetch" };
const PRERENDER = { "Sec-Purpose": "prefetch;prerender" };
const LEGACY = { Purpose: "prefetch" };

async function send(
  url: string,
  method: "GET" | "HEAD",
  headers: Record<string, string> = {},
): Promise<{ status: number; cache: string | null }> {
  const res = await fetch(url, { method, headers: { "User-Agent": browser(), ...headers } });
  await res.arrayBuffer();
  return { status: res.status, cache: res.headers.get("x-render-cache") };
}

function beacon(page: string, referrer: string): Record<string, string> {
  // The beacon's own Referer is the page itself; the forwarded one is what counts.
  return { "X-Inkwell-Read": "1", "X-Inkwell-Referrer": referrer, Referer: page };
}

describe(`speculative loads and the read beacon through the server (${testDialect()})`, () => {
  it("counts no prefetch or plain HEAD, and one read (view, impression, Insights) per beacon or GET, cached or rendered", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url });
    const opened = openDatabase(parseDatabaseUrl(database.url, dataDir));
    try {
      const post = (slug: string) =>
        createPost(opened.db, {
          slug,
          authorId: null,
          status: "published",
          publishedAt: "2026-11-01T00:00:00.000Z",
          translations: [{ locale: "en", title: slug }],
        });
      const cachedId = await post("cached");
      const renderedId = await post("rendered");
      // Shown under every post: an impression for each read of a post page.
      const adId = await createAd(opened.db, {
        placement: "post_bottom",
        kind: "text",
        titleEn: "An ad",
        textEn: "Words",
        linkUrl: "https://ads.example/",
      });

      // From the cache: the prefetch renders the page (and keeps it), the rest are hits.
      const cached = `${server.url}/en/posts/detail/${cachedId}`;
      expect(await send(cached, "GET", { ...PREFETCH, Referer: "https://www.bing.com/a" })).toEqual({
        status: 200,
        cache: "miss",
      });
      expect(await send(cached, "GET", { ...PRERENDER, Referer: "https://www.bing.com/b" })).toEqual({
        status: 200,
        cache: "hit",
      });
      expect((await send(cached, "GET", { ...LEGACY, Referer: "https://www.bing.com/c" })).cache).toBe("hit");
      expect((await send(cached, "HEAD", { Referer: "https://www.bing.com/d" })).cache).toBe("hit");
      expect((await send(cached, "HEAD", beacon(cached, "https://duckduckgo.com/"))).cache).toBe("hit");
      expect((await send(cached, "GET", { Referer: "https://www.google.com/" })).cache).toBe("hit");
      // The beacon of a page reached by a tagged link keeps its source.
      expect((await send(`${cached}?utm_source=newsletter`, "HEAD", beacon(cached, ""))).cache).toBe("hit");

      // From a render: each URL is new to the cache (a query the page ignores), and a HEAD
      // never fills the cache.
      const rendered = (n: number) => `${server.url}/en/posts/detail/${renderedId}?n=${n}`;
      expect((await send(rendered(1), "GET", { ...PREFETCH, Referer: "https://www.bing.com/e" })).cache).toBe("miss");
      expect((await send(rendered(2), "HEAD", { Referer: "https://www.bing.com/f" })).status).toBe(200);
      expect((await send(rendered(3), "HEAD", beacon(rendered(3), "https://www.baidu.com/"))).status).toBe(200);
      expect((await send(rendered(4), "GET", { Referer: "https://www.yandex.ru/" })).cache).toBe("miss");

      // A missing page: a prefetch counts no 404, the beacon does (with its forwarded referrer).
      expect((await send(`${server.url}/en/gone`, "GET", { ...PREFETCH, Referer: cached })).status).toBe(404);
      expect((await send(`${server.url}/en/gone`, "HEAD", { Referer: cached })).status).toBe(404);
      expect((await send(`${server.url}/en/gone`, "HEAD", beacon(`${server.url}/en/gone`, cached))).status).toBe(404);

      // A bot's beacon counts nothing, as its GET would not.
      const bot = { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" };
      expect((await send(cached, "HEAD", { ...beacon(cached, "https://www.bing.com/g"), ...bot })).cache).toBe("hit");

      const { code } = await server.stop("SIGTERM");
      expect(code).toBe(0);
      const views = await opened.db.selectFrom("posts").select(["slug", "viewCount"]).orderBy("slug").execute();
      expect(views.map((r) => [r.slug, Number(r.viewCount)])).toEqual([
        ["cached", 3],
        ["rendered", 2],
      ]);
      // The five post page reads above (a 404 page has no ad, a bot counts none).
      const ad = await opened.db.selectFrom("ads").select("impressions").where("id", "=", adId).executeTakeFirst();
      expect(Number(ad?.impressions)).toBe(5);
      const rows = await opened.db.selectFrom("insightCounts").select(["metric", "key", "count"]).execute();
      const counts = Object.fromEntries(rows.map((r) => [`${r.metric} ${r.key}`, Number(r.count)]));
      // Exactly these: no Bing (every request that should count nothing came from it).
      expect(counts).toEqual({
        "views ": 5,
        "page post": 5,
        "lang en": 5,
        [`post ${cachedId}`]: 3,
        [`postLang ${cachedId} en`]: 3,
        [`postReferrer ${cachedId} DuckDuckGo`]: 1,
        [`postReferrer ${cachedId} Google`]: 1,
        [`postSource ${cachedId} newsletter`]: 1,
        [`post ${renderedId}`]: 2,
        [`postLang ${renderedId} en`]: 2,
        [`postReferrer ${renderedId} Baidu`]: 1,
        [`postReferrer ${renderedId} Yandex`]: 1,
        "referrer DuckDuckGo": 1,
        "referrer Google": 1,
        "referrer Baidu": 1,
        "referrer Yandex": 1,
        "source newsletter": 1,
        // The beacon forwarded the post page as its referrer: a link on this site.
        "notFound /en/gone ← (self)": 1,
      });
    } finally {
      await server.stop("SIGKILL");
      await opened.close();
      await database.cleanup();
    }
  });
});
