import type { DB } from "./db/db.server.ts";

/**
 * How long one instance reuses a count of published posts: the total behind a list's
 * "page x of y", and the per-category counts of the footer's "Popular categories".
 * Every content change on any instance drops them sooner (the content-version watcher
 * and the writer's own request call `forgetPostCounts`); the limit only bounds how
 * long a row written straight into the database goes uncounted.
 */
export const POST_COUNTS_TTL_MS = 30_000;

/** Distinct counts (all posts, each category, each tag, the footer's) kept at once. */
const MAX_KEPT = 1_000;

interface Kept {
  until: number;
  value: Promise<unknown>;
}

const cache = new WeakMap<DB, Map<string, Kept>>();

/**
 * The count `key` names, computed by `compute` at most once per POST_COUNTS_TTL_MS on
 * this instance: counting every published post of a large blog on each page view costs
 * more than the page itself. A failed count is not kept.
 */
export function cachedCount<T>(db: DB, key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
  let kept = cache.get(db);
  if (!kept) {
    kept = new Map();
    cache.set(db, kept);
  }
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
