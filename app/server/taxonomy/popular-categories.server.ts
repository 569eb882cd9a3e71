import type { DB } from "../db/db.server.ts";
import { cachedCount } from "../posts/post-counts.server.ts";
import { type CategoryCount, categoryPostCounts } from "./taxonomy.server.ts";

/**
 * The per-category published post counts behind the footer's "Popular categories",
 * kept like the list totals (post-counts.server.ts: 30 s at most, dropped by
 * `forgetPostCounts` on every content change).
 */
export function cachedCategoryPostCounts(db: DB, now: number = Date.now()): Promise<CategoryCount[]> {
  return cachedCount(db, "categories", () => categoryPostCounts(db), now);
}
