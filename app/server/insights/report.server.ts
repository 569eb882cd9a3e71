import type { Locale } from "../../lib/i18n/locale.ts";
import type { InsightRange } from "../../lib/insights.ts";
import type { DB } from "../db/db.server.ts";
import {
  type DayFigures,
  dayOf,
  daysBefore,
  insightDaily,
  insightSeries,
  insightTop,
  type KeyCount,
  postTitles,
} from "../repos/insights.server.ts";

export interface InsightsReport {
  days: InsightRange;
  from: string;
  to: string;
  series: DayFigures[];
  totals: { views: number; visitors: number };
  /** The top posts, each with its views per day of the period (a sparkline). */
  posts: Array<{ id: string; title: string | null; count: number; daily: number[] }>;
  languages: KeyCount[];
  referrers: KeyCount[];
  sources: KeyCount[];
  countries: KeyCount[];
  pages: KeyCount[];
  searches: KeyCount[];
  zeroSearches: KeyCount[];
  notFound: KeyCount[];
}

/** Everything the Insights page shows for the `days` days up to today (UTC). */
export async function insightsReport(
  db: DB,
  opts: { days: InsightRange; locale: Locale; retentionDays: number; now?: Date },
): Promise<InsightsReport> {
  const to = dayOf(opts.now ?? new Date());
  const from = daysBefore(to, opts.days - 1);
  // Reader-typed rows older than the retention are gone anyway.
  const textFrom = [from, daysBefore(to, opts.retentionDays)].sort().at(-1) ?? from;
  const [series, posts, languages, referrers, sources, countries, pages, searches, zeroSearches, notFound] =
    await Promise.all([
      insightSeries(db, from, to),
      insightTop(db, "post", from, to, 20),
      insightTop(db, "lang", from, to),
      insightTop(db, "referrer", from, to, 20),
      insightTop(db, "source", from, to),
      insightTop(db, "country", from, to, 20),
      insightTop(db, "page", from, to, 20),
      insightTop(db, "search", textFrom, to, 20),
      insightTop(db, "searchZero", textFrom, to, 20),
      insightTop(db, "notFound", textFrom, to, 20),
    ]);
  const postIds = posts.map((p) => p.key);
  const [titles, daily] = await Promise.all([
    postTitles(db, postIds, opts.locale),
    insightDaily(db, "post", postIds, from, to),
  ]);
  return {
    days: opts.days,
    from,
    to,
    series,
    totals: {
      views: series.reduce((n, d) => n + d.views, 0),
      visitors: series.reduce((n, d) => n + d.visitors, 0),
    },
    posts: posts.map((p) => ({
      id: p.key,
      title: titles.get(p.key) ?? null,
      count: p.count,
      daily: daily.get(p.key) ?? [],
    })),
    languages,
    referrers,
    sources,
    countries,
    pages,
    searches,
    zeroSearches,
    notFound,
  };
}
