/** What the Insights page and its server code share (docs/decisions/021-insights.md). */

/** The periods the Insights page offers, in days. */
export const INSIGHT_RANGES = [7, 30, 90, 365] as const;
export type InsightRange = (typeof INSIGHT_RANGES)[number];
export const DEFAULT_RANGE: InsightRange = 30;

/** `?days=`: absent is the default; anything but an offered period is null (→ 400). */
export function parseRange(raw: string | null): InsightRange | null {
  if (raw === null || raw === "") return DEFAULT_RANGE;
  if (!/^\d{1,3}$/.test(raw)) return null;
  const n = Number(raw);
  return (INSIGHT_RANGES as readonly number[]).includes(n) ? (n as InsightRange) : null;
}

/** The tables the page shows, by the names the CSV export takes. */
export const INSIGHT_TABLES = [
  "days",
  "posts",
  "languages",
  "referrers",
  "sources",
  "countries",
  "pages",
  "searches",
  "zeroSearches",
  "notFound",
  "feedReaders",
  "newsletter",
  "fediverse",
] as const;
export type InsightTable = (typeof INSIGHT_TABLES)[number];

export function isInsightTable(value: string | null): value is InsightTable {
  return value !== null && (INSIGHT_TABLES as readonly string[]).includes(value);
}

/** The tables of one post's Insights page, by the names the CSV export takes. */
export const POST_INSIGHT_TABLES = ["days", "languages", "referrers", "sources"] as const;
export type PostInsightTable = (typeof POST_INSIGHT_TABLES)[number];

export function isPostInsightTable(value: string): value is PostInsightTable {
  return (POST_INSIGHT_TABLES as readonly string[]).includes(value);
}

/** A 404's key: the path and the referrer, joined by a space and an arrow (paths hold no spaces). */
export const NOT_FOUND_SEPARATOR = " ← ";
/** A 404's referrer when the broken link is on this site. */
export const SAME_SITE = "(self)";

/**
 * The key a day's counts are added to once that day holds as many distinct 404 paths, referrers,
 * searches or feed readers as it keeps (DAILY_KEY_CAPS): a tab, which no counted key holds
 * (they are stored with tabs turned into spaces). Shown as "Other"; a post's referrers past the
 * cap are "<post id> " followed by it.
 */
export const OTHER_KEY = "\t";
