import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Locale } from "../../lib/i18n/locale.ts";
import { OTHER_KEY } from "../../lib/insights.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";

/**
 * Insights storage: daily counts per metric and key, a day's unique-visitor hashes and
 * that day's salt (docs/decisions/021-insights.md).
 */

/** What is counted per day. "visitors" is written by the roll-up; the rest by the recorders. */
export type InsightMetric =
  | "views"
  | "visitors"
  | "page"
  | "post"
  | "postLang"
  | "postReferrer"
  | "postSource"
  | "lang"
  | "referrer"
  | "source"
  | "country"
  | "search"
  | "searchZero"
  | "notFound"
  | "feedFetch"
  | "feedSubs"
  | "newsletterUnsub";

/** Metrics whose keys are what readers typed (queries, paths): kept only INSIGHTS_RETENTION_DAYS. */
export const READER_TEXT_METRICS: readonly InsightMetric[] = ["search", "searchZero", "notFound"];

/**
 * Distinct keys one day keeps of each metric whose keys are what visitors send (a path, a
 * Referer, a query, a User-Agent): past it, that day's new keys are counted together under
 * OTHER_KEY (issue 45: 20,000 made-up 404 paths wrote 20,000 rows). The Insights page shows the
 * top 20 of a period; a real site meets a few dozen broken links, searches or referring hosts a
 * day, rarely hundreds, so 1,000 keeps every one that could reach a top list and bounds a flood
 * at ~1,000 rows a day a metric (some 250 KB, for INSIGHTS_RETENTION_DAYS at most). A post's
 * referrers share one allowance, with an "other" row per post past it. Feed reader apps are
 * named by their User-Agent: 200 is far more than exist. Feed subscriber counts past theirs are
 * dropped (a highest-of-the-day figure cannot be added up into "other"). Several instances
 * writing at once may each pass the cap by one batch.
 */
export const DAILY_KEY_CAPS: Readonly<Partial<Record<InsightMetric, number>>> = {
  notFound: 1_000,
  search: 1_000,
  searchZero: 1_000,
  referrer: 1_000,
  postReferrer: 2_000,
  feedFetch: 200,
  feedSubs: 200,
};

/** Where a count past its day's cap goes: the metric's "other" row (a post's own, for its referrers). */
function otherKeyOf(metric: string, key: string): string {
  if (metric === "postReferrer") return `${key.slice(0, key.indexOf(" "))} ${OTHER_KEY}`;
  return OTHER_KEY;
}

const isOtherKey = (key: string) => key.endsWith(OTHER_KEY);

interface CountRow {
  day: string;
  metric: string;
  key: string;
  count: number;
}

/**
 * `rows` with each capped metric's new keys past its day's cap (DAILY_KEY_CAPS) folded into the
 * "other" row, or dropped (`fold` false). Keys the day holds already stay as they are.
 */
async function withinDailyCaps(trx: DB, rows: CountRow[], fold: boolean): Promise<CountRow[]> {
  const out: CountRow[] = [];
  const groups = new Map<string, CountRow[]>();
  for (const row of rows) {
    if (DAILY_KEY_CAPS[row.metric as InsightMetric] === undefined || isOtherKey(row.key)) {
      out.push(row);
      continue;
    }
    const id = `${row.day}\t${row.metric}`;
    const group = groups.get(id) ?? [];
    group.push(row);
    groups.set(id, group);
  }
  const others = new Map<string, CountRow>();
  for (const group of groups.values()) {
    const { day, metric } = group[0] as CountRow;
    const cap = DAILY_KEY_CAPS[metric as InsightMetric] ?? 0;
    const stored = await trx
      .selectFrom("insightCounts")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("metric", "=", metric)
      .where("day", "=", day)
      .executeTakeFirstOrThrow();
    let room = cap - Number(stored.n);
    const known = new Set<string>();
    if (room < group.length) {
      for (let i = 0; i < group.length; i += INSERT_CHUNK) {
        const keys = group.slice(i, i + INSERT_CHUNK).map((r) => r.key);
        const found = await trx
          .selectFrom("insightCounts")
          .select("key")
          .where("metric", "=", metric)
          .where("day", "=", day)
          .where("key", "in", keys)
          .execute();
        for (const f of found) known.add(f.key);
      }
    }
    for (const row of group) {
      if (known.has(row.key)) out.push(row);
      else if (room > 0) {
        room -= 1;
        out.push(row);
      } else if (fold) {
        const key = otherKeyOf(metric, row.key);
        const id = `${day}\t${metric}\t${key}`;
        const other = others.get(id);
        if (other) other.count += row.count;
        else others.set(id, { day, metric, key, count: row.count });
      }
    }
  }
  return [...out, ...others.values()];
}

/** Every other daily row is kept this long: a year of charts and a little more. */
export const AGGREGATE_KEEP_DAYS = 400;

/**
 * A day's visitor hashes are counted (and they and the salt deleted) this long after the
 * day ends: instances still write the day's last batch for a few seconds after midnight.
 */
export const ROLLUP_GRACE_MS = 10 * 60_000;

const DAY_MS = 86_400_000;

/** The UTC day of a moment, "YYYY-MM-DD". */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The day `n` days before `day`. */
export function daysBefore(day: string, n: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00.000Z`) - n * DAY_MS));
}

/** One count's place in a batch: day, metric and key joined by tabs (keys never hold one). */
export function countKey(day: string, metric: InsightMetric, key: string): string {
  const safe = /[\t\r\n]/.test(key) ? key.replace(/[\t\r\n]/g, " ") : key;
  return `${day}\t${metric}\t${safe}`;
}

/**
 * The salt of `day`, made by whichever instance asks first; every instance gets the same
 * one. Hex text, 32 random bytes.
 */
export async function ensureSalt(db: DB, day: string): Promise<string> {
  const known = await db.selectFrom("insightSalts").select("salt").where("day", "=", day).executeTakeFirst();
  if (known) return known.salt;
  await db
    .insertInto("insightSalts")
    .values({ day, salt: randomBytes(32).toString("hex"), createdAt: nowIso() })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  const row = await db.selectFrom("insightSalts").select("salt").where("day", "=", day).executeTakeFirstOrThrow();
  return row.salt;
}

const INSERT_CHUNK = 200;

/**
 * Adds one batch: counts (keyed by `countKey`) added to their daily rows (new keys past their
 * metric's daily cap to its "other" row: DAILY_KEY_CAPS), and visitor hashes inserted once (a hash another instance wrote already is skipped). One transaction.
 */
export async function writeInsightBatch(
  db: DB,
  counts: ReadonlyMap<string, number>,
  visitors: ReadonlyArray<{ day: string; hash: string }>,
  maxima: ReadonlyMap<string, number> = new Map(),
): Promise<void> {
  if (counts.size === 0 && visitors.length === 0 && maxima.size === 0) return;
  const rowsOf = (map: ReadonlyMap<string, number>) =>
    [...map].map(([joined, count]) => {
      const [day = "", metric = "", key = ""] = joined.split("\t");
      return { day, metric, key, count };
    });
  const stored = sql.ref("insightCounts.count");
  const incoming = sql.ref("excluded.count");
  await db.transaction().execute(async (trx) => {
    const rows = await withinDailyCaps(trx, rowsOf(counts), true);
    const highest = await withinDailyCaps(trx, rowsOf(maxima), false);
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto("insightCounts")
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) =>
          oc.columns(["metric", "day", "key"]).doUpdateSet({ count: sql<number>`${stored} + ${incoming}` }),
        )
        .execute();
    }
    // The same on both dialects (SQLite's max(a, b) is PostgreSQL's greatest).
    for (let i = 0; i < highest.length; i += INSERT_CHUNK) {
      await trx
        .insertInto("insightCounts")
        .values(highest.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) =>
          oc.columns(["metric", "day", "key"]).doUpdateSet({
            count: sql<number>`case when ${incoming} > ${stored} then ${incoming} else ${stored} end`,
          }),
        )
        .execute();
    }
    for (let i = 0; i < visitors.length; i += INSERT_CHUNK) {
      await trx
        .insertInto("insightVisitors")
        .values(visitors.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(["day", "hash"]).doNothing())
        .execute();
    }
  });
}

export interface RollUpResult {
  /** The days whose visitors were counted (and their hashes deleted). */
  countedDays: string[];
  /** Daily rows deleted for their age. */
  prunedRows: number;
}

/**
 * The daily housekeeping, run by one instance: counts each finished day's visitor hashes
 * into its "visitors" row and deletes them and the day's salt (from then on nobody can tell
 * whose a hash was), then deletes reader-typed rows older than `retentionDays` and every
 * daily row older than AGGREGATE_KEEP_DAYS. A day is finished ROLLUP_GRACE_MS after midnight.
 */
export async function rollUpInsights(db: DB, opts: { now?: Date; retentionDays: number }): Promise<RollUpResult> {
  const now = opts.now ?? new Date();
  // Days before this one are over (with the grace for late batches).
  const openDay = dayOf(new Date(now.getTime() - ROLLUP_GRACE_MS));
  const days = await db
    .selectFrom("insightVisitors")
    .select("day")
    .distinct()
    .where("day", "<", openDay)
    .orderBy("day")
    .execute();
  const countedDays: string[] = [];
  for (const { day } of days) {
    await db.transaction().execute(async (trx) => {
      const counted = await trx
        .selectFrom("insightVisitors")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("day", "=", day)
        .executeTakeFirstOrThrow();
      const n = Number(counted.n);
      await trx
        .insertInto("insightCounts")
        .values({ day, metric: "visitors", key: "", count: n })
        .onConflict((oc) =>
          oc.columns(["metric", "day", "key"]).doUpdateSet({
            count: sql<number>`${sql.ref("insightCounts.count")} + ${sql.ref("excluded.count")}`,
          }),
        )
        .execute();
      await trx.deleteFrom("insightVisitors").where("day", "=", day).execute();
    });
    countedDays.push(day);
  }
  await db.deleteFrom("insightSalts").where("day", "<", openDay).execute();

  const today = dayOf(now);
  const textCut = daysBefore(today, opts.retentionDays);
  const allCut = daysBefore(today, AGGREGATE_KEEP_DAYS);
  const text = await db
    .deleteFrom("insightCounts")
    .where("metric", "in", [...READER_TEXT_METRICS])
    .where("day", "<", textCut)
    .executeTakeFirst();
  const old = await db.deleteFrom("insightCounts").where("day", "<", allCut).executeTakeFirst();
  return { countedDays, prunedRows: Number(text.numDeletedRows) + Number(old.numDeletedRows) };
}

export interface DayFigures {
  day: string;
  views: number;
  visitors: number;
}

/**
 * Views and unique visitors for every day from `from` to `to` (inclusive), zeros where
 * nothing was counted. Days not yet rolled up count their hashes directly.
 */
export async function insightSeries(db: DB, from: string, to: string): Promise<DayFigures[]> {
  const [counted, live] = await Promise.all([
    db
      .selectFrom("insightCounts")
      .select(["day", "metric", "count"])
      .where("metric", "in", ["views", "visitors"])
      .where("key", "=", "")
      .where("day", ">=", from)
      .where("day", "<=", to)
      .execute(),
    db
      .selectFrom("insightVisitors")
      .select((eb) => ["day", eb.fn.countAll<number | string>().as("n")])
      .where("day", ">=", from)
      .where("day", "<=", to)
      .groupBy("day")
      .execute(),
  ]);
  const byDay = new Map<string, DayFigures>();
  const at = (day: string) => {
    let figures = byDay.get(day);
    if (!figures) {
      figures = { day, views: 0, visitors: 0 };
      byDay.set(day, figures);
    }
    return figures;
  };
  for (const row of counted) {
    if (row.metric === "views") at(row.day).views += Number(row.count);
    else at(row.day).visitors += Number(row.count);
  }
  for (const row of live) at(row.day).visitors += Number(row.n);
  const series: DayFigures[] = [];
  for (let day = from; day <= to; day = daysBefore(day, -1)) {
    series.push(byDay.get(day) ?? { day, views: 0, visitors: 0 });
  }
  return series;
}

export interface KeyCount {
  key: string;
  count: number;
}

/** The keys of `metric` with the highest totals from `from` to `to`, most first. */
export async function insightTop(
  db: DB,
  metric: InsightMetric,
  from: string,
  to: string,
  limit = 10,
): Promise<KeyCount[]> {
  const rows = await db
    .selectFrom("insightCounts")
    .select((eb) => ["key", eb.fn.sum<number | string>("count").as("total")])
    .where("metric", "=", metric)
    .where("day", ">=", from)
    .where("day", "<=", to)
    .groupBy("key")
    .orderBy("total", "desc")
    .orderBy("key")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: r.key, count: Number(r.total) }));
}

/**
 * Each of `keys`' count per day of `metric` from `from` to `to` (inclusive), zeros where
 * nothing was counted: the top posts' sparklines.
 */
export async function insightDaily(
  db: DB,
  metric: InsightMetric,
  keys: readonly string[],
  from: string,
  to: string,
): Promise<Map<string, number[]>> {
  const days: string[] = [];
  for (let day = from; day <= to; day = daysBefore(day, -1)) days.push(day);
  const index = new Map(days.map((day, i) => [day, i]));
  const series = new Map(keys.map((key) => [key, days.map(() => 0)]));
  if (keys.length === 0) return series;
  const rows = await db
    .selectFrom("insightCounts")
    .select(["key", "day", "count"])
    .where("metric", "=", metric)
    .where("key", "in", [...keys])
    .where("day", ">=", from)
    .where("day", "<=", to)
    .execute();
  for (const row of rows) {
    const values = series.get(row.key);
    const at = index.get(row.day);
    if (values && at !== undefined) values[at] = Number(row.count);
  }
  return series;
}

export interface FeedReader {
  app: string;
  /** Subscribers the app last reported in the period, over all our feeds; null: it reports none. */
  subscribers: number | null;
  /** Feed fetches by the app in the period. */
  fetches: number;
}

/**
 * Feed reader apps from `from` to `to`: how often each fetched our feeds and, for apps
 * that report it, their subscribers: per feed the figure of the last day it was reported,
 * added up over the feeds. Most subscribers first, then most fetches.
 */
export async function insightFeedReaders(db: DB, from: string, to: string, limit = 20): Promise<FeedReader[]> {
  const [fetches, reported] = await Promise.all([
    insightTop(db, "feedFetch", from, to, 200),
    db
      .selectFrom("insightCounts")
      .select(["day", "key", "count"])
      .where("metric", "=", "feedSubs")
      .where("day", ">=", from)
      .where("day", "<=", to)
      .orderBy("day")
      .execute(),
  ]);
  // Key "<feed path> <app>": the day order leaves each feed's latest figure.
  const latest = new Map<string, { app: string; count: number }>();
  for (const row of reported) {
    const space = row.key.indexOf(" ");
    latest.set(row.key, { app: row.key.slice(space + 1), count: Number(row.count) });
  }
  const subscribers = new Map<string, number>();
  for (const { app, count } of latest.values()) subscribers.set(app, (subscribers.get(app) ?? 0) + count);
  const apps = new Map<string, FeedReader>();
  for (const f of fetches)
    apps.set(f.key, { app: f.key, subscribers: subscribers.get(f.key) ?? null, fetches: f.count });
  for (const [app, n] of subscribers) if (!apps.has(app)) apps.set(app, { app, subscribers: n, fetches: 0 });
  return [...apps.values()]
    .sort(
      (a, b) => (b.subscribers ?? -1) - (a.subscribers ?? -1) || b.fetches - a.fetches || a.app.localeCompare(b.app),
    )
    .slice(0, limit);
}

/** The metrics that break one post's reads down, keyed "<post id> <value>". */
export type PostInsightMetric = "postLang" | "postReferrer" | "postSource";

/** One post's values of a per-post metric with the highest totals from `from` to `to`, most first. */
export async function insightPostTop(
  db: DB,
  metric: PostInsightMetric,
  postId: string,
  from: string,
  to: string,
  limit = 20,
): Promise<KeyCount[]> {
  const prefix = `${postId} `;
  const rows = await db
    .selectFrom("insightCounts")
    .select((eb) => ["key", eb.fn.sum<number | string>("count").as("total")])
    .where("metric", "=", metric)
    .where("day", ">=", from)
    .where("day", "<=", to)
    // A prefix match that means the same on both dialects, whatever the collation.
    .where(sql<string>`substr(${sql.ref("key")}, 1, ${prefix.length})`, "=", prefix)
    .groupBy("key")
    .orderBy("total", "desc")
    .orderBy("key")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: r.key.slice(prefix.length), count: Number(r.total) }));
}

/** A newsletter send's id as our links carry it (ids.server.ts: 20 of its 32 characters). */
const SEND_ID = /^[0-9a-hjkmnp-tv-z]{20}$/;

/**
 * Counts an unsubscribe that came through a newsletter's link, for the send it names (a
 * send that does not exist is not counted: the parameter is the reader's to change).
 */
export async function countNewsletterUnsubscribe(db: DB, sendId: string, now = new Date()): Promise<boolean> {
  if (!SEND_ID.test(sendId)) return false;
  const send = await db.selectFrom("newsletterSends").select("id").where("id", "=", sendId).executeTakeFirst();
  if (!send) return false;
  // Called inside the unsubscribe's transaction: one upsert, no transaction of its own.
  await db
    .insertInto("insightCounts")
    .values({ day: dayOf(now), metric: "newsletterUnsub", key: sendId, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(["metric", "day", "key"])
        .doUpdateSet({ count: sql<number>`${sql.ref("insightCounts.count")} + ${sql.ref("excluded.count")}` }),
    )
    .execute();
  return true;
}

export interface NewsletterReach {
  sendId: string;
  postId: string;
  title: string | null;
  /** When the send started (the post went out). */
  startedAt: string;
  /** Mails delivered. */
  sent: number;
  failed: number;
  /** Readers who left through this send's unsubscribe link (any day). */
  unsubscribes: number;
  /** Reads of the post from the newsletter's links in the period. */
  reads: number;
}

/**
 * The newsletters sent from `from` to `to` (by the day they started), newest first: how many
 * mails went out, how many readers unsubscribed through them and read the post from them.
 */
export async function insightNewsletter(
  db: DB,
  from: string,
  to: string,
  locale: Locale,
  limit = 20,
): Promise<NewsletterReach[]> {
  const sends = await db
    .selectFrom("newsletterSends")
    .select(["id", "postId", "createdAt"])
    .where("createdAt", ">=", `${from}T00:00:00.000Z`)
    .where("createdAt", "<=", `${to}T23:59:59.999Z`)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  if (sends.length === 0) return [];
  const sendIds = sends.map((s) => s.id);
  const postIds = [...new Set(sends.map((s) => s.postId))];
  const [titles, mails, unsubscribes, reads] = await Promise.all([
    postTitles(db, postIds, locale),
    db
      .selectFrom("mailOutbox")
      .select((eb) => ["sendId", "status", eb.fn.countAll<number | string>().as("n")])
      .where("sendId", "in", sendIds)
      .where("status", "in", ["sent", "failed"])
      .groupBy(["sendId", "status"])
      .execute(),
    db
      .selectFrom("insightCounts")
      .select((eb) => ["key", eb.fn.sum<number | string>("count").as("n")])
      .where("metric", "=", "newsletterUnsub")
      .where("key", "in", sendIds)
      .groupBy("key")
      .execute(),
    db
      .selectFrom("insightCounts")
      .select((eb) => ["key", eb.fn.sum<number | string>("count").as("n")])
      .where("metric", "=", "postSource")
      .where(
        "key",
        "in",
        postIds.map((id) => `${id} newsletter`),
      )
      .where("day", ">=", from)
      .where("day", "<=", to)
      .groupBy("key")
      .execute(),
  ]);
  const mailCount = (sendId: string, status: string) =>
    Number(mails.find((m) => m.sendId === sendId && m.status === status)?.n ?? 0);
  const unsubscribed = new Map(unsubscribes.map((r) => [r.key, Number(r.n)]));
  const readsOf = new Map(reads.map((r) => [r.key.slice(0, r.key.indexOf(" ")), Number(r.n)]));
  return sends.map((s) => ({
    sendId: s.id,
    postId: s.postId,
    title: titles.get(s.postId) ?? null,
    startedAt: s.createdAt,
    sent: mailCount(s.id, "sent"),
    failed: mailCount(s.id, "failed"),
    unsubscribes: unsubscribed.get(s.id) ?? 0,
    reads: readsOf.get(s.postId) ?? 0,
  }));
}

/** Titles of posts for the admin's language, else the other one; a deleted post is missing. */
export async function postTitles(db: DB, ids: readonly string[], locale: Locale): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  if (ids.length === 0) return titles;
  const rows = await db
    .selectFrom("postTranslations")
    .select(["postId", "locale", "title"])
    .where("postId", "in", [...ids])
    .execute();
  for (const row of rows) {
    if (!titles.has(row.postId) || row.locale === locale) titles.set(row.postId, row.title);
  }
  return titles;
}
