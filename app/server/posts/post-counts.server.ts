import { CompiledQuery, SqliteAdapter } from "kysely";
import type { DB } from "../db/db.server.ts";

/**
 * How long one instance reuses a count of published posts: the total behind a list's
 * "page x of y", and the per-category counts of the footer's "Popular categories" (and
 * a placement's ad rows, site/ads.server.ts, which change as rarely and are dropped alike).
 * Every content change on any instance drops them sooner (the content-version watcher
 * and the writer's own request call `forgetPostCounts`), and on SQLite so does any
 * commit by another connection (a CLI command, a test writing rows straight into the
 * file: `PRAGMA data_version`); the limit only bounds how long a row written straight
 * into a PostgreSQL database goes uncounted.
 */
export const POST_COUNTS_TTL_MS = 30_000;

/** Distinct counts (all posts, each category, each tag, the footer's) kept at once. */
const MAX_KEPT = 1_000;

interface Kept {
  until: number;
  value: Promise<unknown>;
}

interface Counts {
  /** SQLite's data_version when these counts were started; null on PostgreSQL. */
  stamp: number | null;
  kept: Map<string, Kept>;
}

const cache = new WeakMap<DB, Counts>();

/**
 * SQLite's `PRAGMA data_version`: it changes whenever another connection commits to
 * the file, and costs a few microseconds. PostgreSQL has no such counter (null).
 */
function externalWriteStamp(db: DB): Promise<number | null> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return Promise.resolve(null);
  // Callers waiting at the same time share one read: a page's loaders ask together.
  let reading = stampReads.get(db);
  if (!reading) {
    reading = db
      .executeQuery(DATA_VERSION)
      .then(({ rows }) => rows[0]?.data_version ?? null)
      .finally(() => stampReads.delete(db));
    stampReads.set(db, reading);
  }
  return reading;
}

const DATA_VERSION = CompiledQuery.raw("pragma data_version") as CompiledQuery<{ data_version: number }>;
const stampReads = new WeakMap<DB, Promise<number | null>>();

async function countsOf(db: DB): Promise<Map<string, Kept>> {
  const stamp = await externalWriteStamp(db);
  const counts = cache.get(db);
  if (counts && counts.stamp === stamp) return counts.kept;
  const fresh: Counts = { stamp, kept: new Map() };
  cache.set(db, fresh);
  return fresh.kept;
}

/**
 * The count `key` names, computed by `compute` at most once per POST_COUNTS_TTL_MS on
 * this instance: counting every published post of a large blog on each page view costs
 * more than the page itself. A failed count is not kept.
 */
export async function cachedCount<T>(db: DB, key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
  const kept = await countsOf(db);
  const hit = kept.get(key);
  // The key decides the type: each key has one caller, which stored this T.
  if (hit && hit.until > now) return hit.value as Promise<T>;
  if (!hit && kept.size >= MAX_KEPT) kept.clear();
  const value = compute();
  const entry: Kept = { until: now + POST_COUNTS_TTL_MS, value };
  kept.set(key, entry);
  const map = kept;
  value.catch(() => {
    if (map.get(key) === entry) map.delete(key);
  });
  return value;
}

/** The published-post total of one list (`key` names the filter). */
export function cachedPostCount(db: DB, key: string, count: () => Promise<number>, now = Date.now()): Promise<number> {
  return cachedCount(db, `total:${key}`, count, now);
}

/** Drops this instance's cached counts: list totals and the footer's category counts. */
export function forgetPostCounts(db: DB): void {
  cache.delete(db);
}
