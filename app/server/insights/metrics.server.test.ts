import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { DB } from "../db/db.server.ts";
import { newId } from "../platform/ids.server.ts";
import { createPost } from "../posts/posts.server.ts";
import {
  countKey,
  countNewsletterUnsubscribe,
  insightFeedReaders,
  insightNewsletter,
  insightSeries,
  insightTop,
  rollUpInsights,
  writeInsightBatch,
} from "./metrics.server.ts";
import { createInsightRecorder, type InsightRecorder, type PageRead } from "./recorder.server.ts";
import { insightsReport, postInsightsReport } from "./report.server.ts";

// Insights storage on both dialects: batches from several instances add up, unique
// visitors use one salt per day that every instance shares, the roll-up counts a
// finished day and forgets its hashes and salt, and old rows are pruned.

let database: TestDatabase;
const recorders: InsightRecorder[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const r of recorders) await r.stop();
  await database.cleanup();
});
beforeEach(async () => {
  for (const table of ["insightCounts", "insightVisitors", "insightSalts"] as const) {
    await database.db.deleteFrom(table).execute();
  }
});

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

function recorder(
  db: DB,
  clock: { now: Date },
  maxPendingKeys?: number,
  isAdmin?: (cookie: string) => Promise<boolean>,
): InsightRecorder {
  const r = createInsightRecorder(db, {
    publicUrl: "https://blog.test",
    intervalMs: 3_600_000,
    now: () => clock.now,
    ...(maxPendingKeys ? { maxPendingKeys } : {}),
    ...(isAdmin ? { isAdmin, onError: () => {} } : {}),
  });
  recorders.push(r);
  return r;
}

function read(extra: Partial<PageRead> = {}): PageRead {
  return {
    kind: "post",
    postId: null,
    locale: "en",
    ip: "203.0.113.7",
    userAgent: BROWSER,
    referer: null,
    host: "blog.test",
    search: "",
    country: null,
    ...extra,
  };
}

async function counts(db: DB) {
  const rows = await db.selectFrom("insightCounts").select(["day", "metric", "key", "count"]).execute();
  return Object.fromEntries(rows.map((r) => [`${r.day} ${r.metric} ${r.key}`, Number(r.count)]));
}

describe(`insights storage (${testDialect()})`, () => {
  it("adds two instances' batches into daily rows and counts a visitor once across them", async () => {
    const { db } = database;
    const clock = { now: new Date("2026-11-20T10:00:00.000Z") };
    const postId = await createPost(db, {
      slug: "insights-a",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [
        { locale: "en", title: "Hello" },
        { locale: "zh", title: "你好" },
      ],
    });
    const a = recorder(db, clock);
    const b = recorder(db, clock);
    expect(a.recordPage(read({ postId, referer: "https://www.google.de/search?q=x" }))).toBe(true);
    expect(b.recordPage(read({ postId, locale: "zh", referer: "https://news.example.org/item?id=1" }))).toBe(true);
    // Same site: no referrer. Our own tagged link: a source.
    expect(b.recordPage(read({ kind: "home", referer: "https://blog.test/posts", search: "?utm_source=feed" }))).toBe(
      true,
    );
    expect(a.recordPage(read({ kind: "home", ip: "198.51.100.9", country: "de" }))).toBe(true);
    await a.flush();
    await b.flush();
    // The first batch waited for the day's salt; a second round uses it at once.
    a.recordPage(read({ postId }));
    await a.flush();

    expect(await counts(db)).toMatchObject({
      "2026-11-20 views ": 5,
      [`2026-11-20 post ${postId}`]: 3,
      "2026-11-20 page post": 3,
      "2026-11-20 page home": 2,
      "2026-11-20 lang en": 4,
      "2026-11-20 lang zh": 1,
      "2026-11-20 referrer Google": 1,
      "2026-11-20 referrer news.example.org": 1,
      "2026-11-20 source feed": 1,
      "2026-11-20 country DE": 1,
    });
    expect(Object.keys(await counts(db)).filter((k) => k.includes("referrer"))).toHaveLength(2);
    // Two addresses, one of them seen by both instances: two visitors.
    const salts = await db.selectFrom("insightSalts").select("day").execute();
    expect(salts.map((s) => s.day)).toEqual(["2026-11-20"]);
    expect(await insightSeries(db, "2026-11-19", "2026-11-20")).toEqual([
      { day: "2026-11-19", views: 0, visitors: 0 },
      { day: "2026-11-20", views: 5, visitors: 2 },
    ]);
    const report = await insightsReport(db, { days: 7, locale: "zh", retentionDays: 30, now: clock.now });
    expect(report.posts).toEqual([{ id: postId, title: "你好", count: 3, daily: [0, 0, 0, 0, 0, 0, 3] }]);
    expect(report.totals).toEqual({ views: 5, visitors: 2 });
    // The post's own Insights: its reads by language and referrer, nothing of the home page's.
    const own = await postInsightsReport(db, { postId, days: 7, now: clock.now });
    expect(own.views).toBe(3);
    expect(own.series.at(-1)).toEqual({ day: "2026-11-20", views: 3 });
    expect(own.languages).toEqual([
      { key: "en", count: 2 },
      { key: "zh", count: 1 },
    ]);
    expect(own.referrers).toEqual([
      { key: "Google", count: 1 },
      { key: "news.example.org", count: 1 },
    ]);
    expect(own.sources).toEqual([]);
  });

  it("does not count bots or readers without a browser, and counts searches and 404s", async () => {
    const { db } = database;
    const clock = { now: new Date("2026-11-20T10:00:00.000Z") };
    const r = recorder(db, clock);
    expect(r.recordPage(read({ userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" }))).toBe(false);
    expect(r.recordPage(read({ userAgent: "" }))).toBe(false);
    expect(r.recordSearch("  Rust   ASYNC ", 0, BROWSER)).toBe(true);
    expect(r.recordSearch("rust async", 3, BROWSER)).toBe(true);
    expect(r.recordSearch("x", 0, "curl/8.5.0")).toBe(false);
    expect(r.recordNotFound("/old-post", "https://blog.test/about", "blog.test", BROWSER)).toBe(true);
    expect(r.recordNotFound("/old-post", "https://t.co/abc", "blog.test", BROWSER)).toBe(true);
    await r.flush();
    expect(await counts(db)).toEqual({
      "2026-11-20 search rust async": 2,
      "2026-11-20 searchZero rust async": 1,
      "2026-11-20 notFound /old-post ← (self)": 1,
      "2026-11-20 notFound /old-post ← X (Twitter)": 1,
    });
    expect(await db.selectFrom("insightVisitors").selectAll().execute()).toEqual([]);
  });

  it("leaves out what a signed-in admin reads, searches or misses, asking once per cookie", async () => {
    const { db } = database;
    const clock = { now: new Date("2026-11-21T10:00:00.000Z") };
    const asked: string[] = [];
    const admins = new Set(["inkwell.session_token=admin"]);
    const r = recorder(db, clock, undefined, async (cookie) => {
      asked.push(cookie);
      if (cookie.includes("broken")) throw new Error("the session store is away");
      return admins.has(cookie);
    });
    const post = "post-admin-test";
    r.recordPage(read({ postId: post, cookie: "inkwell.session_token=admin" }));
    r.recordPage(read({ postId: post, cookie: "inkwell.session_token=admin", ip: "198.51.100.1" }));
    r.recordSearch("drafts", 0, BROWSER, "inkwell.session_token=admin");
    r.recordNotFound("/admin-typo", null, "blog.test", BROWSER, "inkwell.session_token=admin");
    // A signed-in reader, a reader with only the theme cookie, and a lookup that fails: all counted.
    r.recordPage(read({ postId: post, cookie: "inkwell.session_token=reader", ip: "198.51.100.2" }));
    r.recordPage(read({ postId: post, cookie: "theme=dark", ip: "198.51.100.3" }));
    r.recordPage(read({ postId: post, cookie: "inkwell.session_token=broken", ip: "198.51.100.4" }));
    r.recordSearch("rust", 1, BROWSER, "inkwell.session_token=reader");
    await r.flush();
    expect(await counts(db)).toMatchObject({
      "2026-11-21 post post-admin-test": 3,
      // The post's own breakdown, for its charts.
      "2026-11-21 postLang post-admin-test en": 3,
      "2026-11-21 search rust": 1,
    });
    expect(Object.keys(await counts(db)).filter((k) => /drafts|admin-typo/.test(k))).toEqual([]);
    expect(await db.selectFrom("insightVisitors").selectAll().execute()).toHaveLength(3);
    // Each cookie header was asked about once, and is remembered for the next batch.
    expect(asked.sort()).toEqual([
      "inkwell.session_token=admin",
      "inkwell.session_token=broken",
      "inkwell.session_token=reader",
    ]);
    r.recordPage(read({ postId: post, cookie: "inkwell.session_token=admin" }));
    await r.flush();
    expect(asked).toHaveLength(3);
    expect((await counts(db))["2026-11-21 post post-admin-test"]).toBe(3);
  });

  it("counts feed fetches per reader app and keeps each feed's latest reported subscribers", async () => {
    const { db } = database;
    const clock = { now: new Date("2026-11-18T08:00:00.000Z") };
    const a = recorder(db, clock);
    const b = recorder(db, clock);
    const feedly = (n: number) => `Feedly/1.0 (+http://www.feedly.com/fetcher.html; ${n} subscribers; feed-id=x)`;
    // Two instances hear different figures the same day: the day keeps the highest.
    expect(a.recordFeedFetch("/rss.xml", feedly(10))).toBe(true);
    expect(b.recordFeedFetch("/rss.xml", feedly(12))).toBe(true);
    a.recordFeedFetch("/en/rss.xml", feedly(5));
    a.recordFeedFetch("/rss.xml", "Miniflux/2.1 (+https://miniflux.app)");
    expect(a.recordFeedFetch("/rss.xml", "")).toBe(false);
    await b.flush();
    await a.flush();
    expect(await counts(db)).toEqual({
      "2026-11-18 feedFetch Feedly": 3,
      "2026-11-18 feedFetch Miniflux": 1,
      "2026-11-18 feedSubs /rss.xml Feedly": 12,
      "2026-11-18 feedSubs /en/rss.xml Feedly": 5,
    });
    // The next day the figure dropped: the latest day's counts, added over the feeds.
    clock.now = new Date("2026-11-19T08:00:00.000Z");
    a.recordFeedFetch("/rss.xml", feedly(11));
    await a.flush();
    expect(await insightFeedReaders(db, "2026-11-01", "2026-11-19")).toEqual([
      { app: "Feedly", subscribers: 16, fetches: 4 },
      { app: "Miniflux", subscribers: null, fetches: 1 },
    ]);
  });

  it("names each newsletter of the period with the readers it lost and the reads it brought", async () => {
    const { db } = database;
    const postId = await createPost(db, {
      slug: `mailed-${Date.now()}`,
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "Mailed" }],
    });
    const sendId = newId();
    await db
      .insertInto("newsletterSends")
      .values({
        id: sendId,
        postId,
        status: "sending",
        cursor: null,
        recipients: 3,
        mails: null,
        createdBy: null,
        createdAt: "2026-11-10T09:00:00.000Z",
        updatedAt: "2026-11-10T09:00:00.000Z",
      })
      .execute();
    const day = new Date("2026-11-11T12:00:00.000Z");
    expect(await countNewsletterUnsubscribe(db, sendId, day)).toBe(true);
    expect(await countNewsletterUnsubscribe(db, sendId, day)).toBe(true);
    // What the link's parameter may hold but is no send: not counted.
    expect(await countNewsletterUnsubscribe(db, newId(), day)).toBe(false);
    expect(await countNewsletterUnsubscribe(db, "'; drop table posts; --", day)).toBe(false);
    await writeInsightBatch(db, new Map([[countKey("2026-11-11", "postSource", `${postId} newsletter`), 5]]), []);

    expect(await insightNewsletter(db, "2026-11-01", "2026-11-20", "en")).toEqual([
      {
        sendId,
        postId,
        title: "Mailed",
        startedAt: "2026-11-10T09:00:00.000Z",
        sent: 0,
        failed: 0,
        unsubscribes: 2,
        reads: 5,
      },
    ]);
    // A period that did not see it go out does not list it.
    expect(await insightNewsletter(db, "2026-11-11", "2026-11-20", "en")).toEqual([]);
  });

  it("holds a bounded number of distinct searches or 404 paths in one batch", async () => {
    const { db } = database;
    const r = recorder(db, { now: new Date("2026-11-20T10:00:00.000Z") }, 100);
    for (let i = 0; i < 100; i++) r.recordNotFound(`/scan-${i}`, null, "blog.test", BROWSER);
    expect(r.recordSearch("one more", 0, BROWSER)).toBe(false);
    expect(r.recordNotFound("/scan-1", null, "blog.test", BROWSER)).toBe(true);
    // Page reads have their own bound: a flood of 404s does not stop them.
    expect(r.recordPage(read())).toBe(true);
    await r.flush();
    const n = await db
      .selectFrom("insightCounts")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(100 + 3);
  });

  it("uses a new salt each day, then counts the finished day and deletes its hashes and salt", async () => {
    const { db } = database;
    const clock = { now: new Date("2026-11-20T23:59:00.000Z") };
    const r = recorder(db, clock);
    r.recordPage(read());
    r.recordPage(read({ ip: "198.51.100.9" }));
    await r.flush();
    clock.now = new Date("2026-11-21T00:01:00.000Z");
    r.recordPage(read());
    await r.flush();
    const salts = await db.selectFrom("insightSalts").select(["day", "salt"]).orderBy("day").execute();
    expect(salts.map((s) => s.day)).toEqual(["2026-11-20", "2026-11-21"]);
    expect(salts[0]?.salt).not.toBe(salts[1]?.salt);
    const hashes = await db.selectFrom("insightVisitors").select(["day", "hash"]).orderBy("day").execute();
    expect(hashes.map((h) => h.day)).toEqual(["2026-11-20", "2026-11-20", "2026-11-21"]);
    // The same reader on two days: two unrelated hashes.
    expect(new Set(hashes.map((h) => h.hash)).size).toBe(3);

    // Within the grace after midnight the day stays open (late batches still come in).
    expect(
      (await rollUpInsights(db, { now: new Date("2026-11-21T00:05:00.000Z"), retentionDays: 30 })).countedDays,
    ).toEqual([]);
    const result = await rollUpInsights(db, { now: new Date("2026-11-21T00:20:00.000Z"), retentionDays: 30 });
    expect(result.countedDays).toEqual(["2026-11-20"]);
    expect((await db.selectFrom("insightSalts").select("day").execute()).map((s) => s.day)).toEqual(["2026-11-21"]);
    expect((await db.selectFrom("insightVisitors").select("day").execute()).map((h) => h.day)).toEqual(["2026-11-21"]);
    expect(await insightSeries(db, "2026-11-20", "2026-11-21")).toEqual([
      { day: "2026-11-20", views: 2, visitors: 2 },
      { day: "2026-11-21", views: 1, visitors: 1 },
    ]);
    // Running it again changes nothing.
    expect(
      (await rollUpInsights(db, { now: new Date("2026-11-21T00:30:00.000Z"), retentionDays: 30 })).countedDays,
    ).toEqual([]);
    expect((await insightSeries(db, "2026-11-20", "2026-11-20"))[0]?.visitors).toBe(2);
  });

  it("prunes reader-typed rows after the retention and every row after 400 days", async () => {
    const { db } = database;
    const batch = new Map([
      [countKey("2026-10-20", "search", "old query"), 1],
      [countKey("2026-10-20", "notFound", "/old ← "), 1],
      [countKey("2026-10-20", "views", ""), 7],
      [countKey("2026-11-10", "search", "recent query"), 2],
      [countKey("2025-10-01", "views", ""), 9],
    ]);
    await writeInsightBatch(db, batch, []);
    // Adding the same batch again adds up.
    await writeInsightBatch(db, new Map([[countKey("2026-11-10", "search", "recent query"), 3]]), []);
    const result = await rollUpInsights(db, { now: new Date("2026-11-26T12:00:00.000Z"), retentionDays: 30 });
    expect(result.prunedRows).toBe(3);
    expect(await counts(db)).toEqual({ "2026-10-20 views ": 7, "2026-11-10 search recent query": 5 });
    expect(await insightTop(db, "search", "2026-11-01", "2026-11-26")).toEqual([{ key: "recent query", count: 5 }]);
  });
});
