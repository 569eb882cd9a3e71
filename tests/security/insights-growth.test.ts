import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_KEY } from "../../app/lib/insights.ts";
import { DAILY_KEY_CAPS, dayOf } from "../../app/server/insights/metrics.server.ts";
import { createInsightRecorder, type PageRead } from "../../app/server/insights/recorder.server.ts";
import { insightsReport, postInsightsReport } from "../../app/server/insights/report.server.ts";
import { createViewCounter } from "../../app/server/insights/views.server.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../setup/test-db.ts";

// Hardening round 3 (issue 45), finding 6: 20,000 requests for made-up 404 paths wrote 20,000
// Insights rows, and 300 reads of one post from one address with 300 User-Agents counted 300
// views. A day keeps a bounded number of distinct 404 paths, referrers and searches (the rest
// counted together as "other"), and one address is a bounded number of visitors a day.

const agent = (i: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:${i}.0) Gecko/20100101 Firefox/${i}.0`;
const clock = { now: new Date("2026-03-10T12:00:00.000Z") };
const day = dayOf(clock.now);
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

async function rowsOf(metric: string): Promise<Map<string, number>> {
  const rows = await database.db
    .selectFrom("insightCounts")
    .select(["key", "count"])
    .where("metric", "=", metric)
    .where("day", "=", day)
    .execute();
  return new Map(rows.map((r) => [r.key, Number(r.count)]));
}

describe(`Insights stay bounded under made-up input (${testDialect()})`, () => {
  it("keeps at most the day's cap of 404 paths, referrers and searches; the rest is one 'other' row", async () => {
    const { db } = database;
    const recorder = createInsightRecorder(db, {
      publicUrl: "https://blog.test",
      intervalMs: 3_600_000,
      now: () => clock.now,
    });
    const read = (i: number): PageRead => ({
      kind: "post",
      postId: "p1",
      locale: "en",
      ip: "203.0.113.7",
      userAgent: agent(1),
      referer: `https://spam-${i}.example/`,
      host: "blog.test",
      search: "",
      country: null,
    });
    // Two batches, as two flushes (or two instances) would write them.
    for (const half of [0, 1]) {
      for (let i = half * 10_000; i < (half + 1) * 10_000; i++) {
        recorder.recordNotFound(`/made-up-${i}`, null, "blog.test", agent(1));
      }
      for (let i = half * 1_500; i < (half + 1) * 1_500; i++) {
        recorder.recordSearch(`query ${i}`, 0, agent(1));
        recorder.recordPage(read(i));
      }
      await recorder.flush();
    }
    await recorder.stop();

    const notFound = await rowsOf("notFound");
    const capNotFound = DAILY_KEY_CAPS.notFound ?? 0;
    expect(notFound.size).toBeLessThanOrEqual(capNotFound + 1);
    expect([...notFound.values()].reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(notFound.get(OTHER_KEY)).toBe(20_000 - (notFound.size - 1));
    for (const metric of ["search", "searchZero", "referrer"] as const) {
      const rows = await rowsOf(metric);
      expect(rows.size, metric).toBeLessThanOrEqual((DAILY_KEY_CAPS[metric] ?? 0) + 1);
      expect(
        [...rows.values()].reduce((a, b) => a + b, 0),
        metric,
      ).toBe(3_000);
      expect(rows.get(OTHER_KEY), metric).toBeGreaterThan(0);
    }
    // A post's referrers past the cap are that post's own "other".
    const postReferrers = await rowsOf("postReferrer");
    expect(postReferrers.size).toBeLessThanOrEqual((DAILY_KEY_CAPS.postReferrer ?? 0) + 1);
    expect([...postReferrers.values()].reduce((a, b) => a + b, 0)).toBe(3_000);

    // A path the day already holds still counts as itself once the cap is reached.
    const again = createInsightRecorder(db, {
      publicUrl: "https://blog.test",
      intervalMs: 3_600_000,
      now: () => clock.now,
    });
    const kept = [...notFound.keys()].find((k) => k !== OTHER_KEY) ?? "";
    again.recordNotFound(kept.split(" ← ")[0] ?? "", null, "blog.test", agent(1));
    await again.stop();
    expect((await rowsOf("notFound")).get(kept)).toBe((notFound.get(kept) ?? 0) + 1);

    // The report lists "other" with its count like any row.
    const report = await insightsReport(db, { days: 7, locale: "en", retentionDays: 30, now: clock.now });
    expect(report.notFound[0]).toEqual({ key: OTHER_KEY, count: notFound.get(OTHER_KEY) });
    const post = await postInsightsReport(db, { postId: "p1", days: 7, now: clock.now });
    expect(post.referrers[0]?.key).toBe(OTHER_KEY);
  });

  it("counts one address naming 300 browsers as a few visitors and a few views of a post", async () => {
    const { db } = database;
    const recorder = createInsightRecorder(db, {
      publicUrl: "https://blog.test",
      intervalMs: 3_600_000,
      now: () => clock.now,
    });
    const views = createViewCounter(null, { write: async () => {}, now: () => clock.now });
    const visitorsBefore = (await db.selectFrom("insightVisitors").select("hash").where("day", "=", day).execute())
      .length;
    let counted = 0;
    for (let i = 0; i < 300; i++) {
      const ua = agent(i);
      if (views.record("p2", { ip: "198.51.100.23", userAgent: ua })) counted += 1;
      recorder.recordPage({
        kind: "post",
        postId: "p2",
        locale: "en",
        ip: "198.51.100.23",
        userAgent: ua,
        referer: null,
        host: "blog.test",
        search: "",
        country: null,
      });
    }
    await recorder.stop();
    await views.stop();
    expect(counted).toBeLessThanOrEqual(10);
    const visitors = await db.selectFrom("insightVisitors").select("hash").where("day", "=", day).execute();
    // The first test's one reader is there too.
    expect(visitors.length - visitorsBefore).toBeLessThanOrEqual(10);
    // Every read is still a page read (reloads count there); only who read is bounded.
    const [postRow] = [...(await rowsOf("post")).entries()].filter(([k]) => k === "p2");
    expect(postRow?.[1]).toBe(300);
  });
});
