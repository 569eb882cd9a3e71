import type { Locale } from "../../lib/i18n/locale.ts";
import type { InsightRange } from "../../lib/insights.ts";
import type { DB } from "../db/db.server.ts";
import { type FediverseReach, insightFediverse } from "./fediverse.server.ts";
import {
  type DayFigures,
  dayOf,
  daysBefore,
  type FeedReader,
  insightDaily,
  insightFeedReaders,
  insightNewsletter,
  insightPostTop,
  insightSeries,
  insightTop,
  type KeyCount,
  type NewsletterReach,
  postTitles,
} from "./metrics.server.ts";

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
  feedReaders: FeedReader[];
  newsletter: NewsletterReach[];
  fediverse: FediverseReach;
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
  const [
    series,
    posts,
    languages,
    referrers,
    sources,
    countries,
    pages,
    searches,
    zeroSearches,
    notFound,
    feedReaders,
    newsletter,
    fediverse,
  ] = await Promise.all([
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
    insightFeedReaders(db, from, to),
    insightNewsletter(db, from, to, opts.locale),
    insightFediverse(db, from, to, opts.locale),
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
    feedReaders,
    newsletter,
    fediverse,
  };
}

export interface PostInsightsReport {
  days: InsightRange;
  from: string;
  to: string;
  /** Views of the post per day of the period. */
  series: Array<{ day: string; views: number }>;
  views: number;
  languages: KeyCount[];
  referrers: KeyCount[];
  sources: KeyCount[];
}

/** What the post's own Insights show for the `days` days up to today (UTC). */
export async function postInsightsReport(
  db: DB,
  opts: { postId: string; days: InsightRange; now?: Date },
): Promise<PostInsightsReport> {
  const to = dayOf(opts.now ?? new Date());
  const from = daysBefore(to, opts.days - 1);
  const [daily, languages, referrers, sources] = await Promise.all([
    insightDaily(db, "post", [opts.postId], from, to),
    insightPostTop(db, "postLang", opts.postId, from, to),
    insightPostTop(db, "postReferrer", opts.postId, from, to),
    insightPostTop(db, "postSource", opts.postId, from, to),
  ]);
  const values = daily.get(opts.postId) ?? [];
  const series = values.map((views, i) => ({ day: daysBefore(from, -i), views }));
  return {
    days: opts.days,
    from,
    to,
    series,
    views: values.reduce((n, v) => n + v, 0),
    languages,
    referrers,
    sources,
  };
}

/** Each post's views per day over the last `days` days (the admin list's sparklines). */
export async function postViewsByDay(
  db: DB,
  postIds: readonly string[],
  opts: { days: number; now?: Date },
): Promise<Map<string, number[]>> {
  const to = dayOf(opts.now ?? new Date());
  return insightDaily(db, "post", postIds, daysBefore(to, opts.days - 1), to);
}
