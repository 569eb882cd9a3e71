import type { DB } from "./db/db.server.ts";
import { type CategoryCount, categoryPostCounts } from "./repos/taxonomy.server.ts";

/**
 * How long one instance reuses the category counts behind the footer's "Popular
 * categories". Short, because nothing tells other instances when posts change
 * (cross-instance invalidation belongs to the caching work of the performance issue).
 */
export const POPULAR_CATEGORIES_TTL_MS = 30_000;

const cache = new WeakMap<DB, { until: number; value: Promise<CategoryCount[]> }>();

/** The per-category published post counts, from an in-process cache of 30 s. */
export function cachedCategoryPostCounts(db: DB, now: number = Date.now()): Promise<CategoryCount[]> {
  const hit = cache.get(db);
  if (hit && hit.until > now) return hit.value;
  const value = categoryPostCounts(db);
  const entry = { until: now + POPULAR_CATEGORIES_TTL_MS, value };
  cache.set(db, entry);
  // A failed read is not kept: the next request tries again.
  value.catch(() => {
    if (cache.get(db) === entry) cache.delete(db);
  });
  return value;
}

/** Drops this instance's cached counts (after this instance publishes, moves or deletes a post). */
export function forgetCategoryPostCounts(db: DB): void {
  cache.delete(db);
}
