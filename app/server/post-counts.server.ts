import type { DB } from "./db/db.server.ts";
import { forgetCategoryPostCounts } from "./popular-categories.server.ts";

/**
 * How long one instance reuses the number of published posts behind a list's "page
 * x of y". Every content change on any instance drops it sooner (the content-version
 * watcher and the writer's own request call `forgetPostCounts`); the limit only
 * bounds how long a row written straight into the database goes uncounted.
 */
export const POST_COUNTS_TTL_MS = 30_000;

/** Distinct lists (all posts, each category, each tag) whose count is kept. */
const MAX_KEPT = 1_000;

interface Kept {
  until: number;
  value: Promise<number>;
}

const cache = new WeakMap<DB, Map<string, Kept>>();

/**
 * The published-post count of one list (`key` names the filter), computed by
 * `count` at most once per POST_COUNTS_TTL_MS: counting every published post of
 * a large blog on each page view costs more than the page itself.
 */
export function cachedPostCount(db: DB, key: string, count: () => Promise<number>, now = Date.now()): Promise<number> {
  let kept = cache.get(db);
  if (!kept) {
    kept = new Map();
    cache.set(db, kept);
  }
  const hit = kept.get(key);
  if (hit && hit.until > now) return hit.value;
  if (!hit && kept.size >= MAX_KEPT) kept.clear();
  const entry: Kept = { until: now + POST_COUNTS_TTL_MS, value: count() };
  kept.set(key, entry);
  const map = kept;
  // A failed count is not kept: the next request tries again.
  entry.value.catch(() => {
    if (map.get(key) === entry) map.delete(key);
  });
  return entry.value;
}

/** Drops this instance's cached counts: list totals and the footer's category counts. */
export function forgetPostCounts(db: DB): void {
  cache.delete(db);
  forgetCategoryPostCounts(db);
}
