import { data } from "react-router";
import { toCsv } from "../../lib/csv.ts";
import { isInsightTable, isPostInsightTable, OTHER_KEY, parseRange } from "../../lib/insights.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { postTitles } from "../../server/insights/metrics.server.ts";
import { insightsReport, postInsightsReport } from "../../server/insights/report.server.ts";
import type { Route } from "./+types/insights-csv";

/**
 * One table of /admin/insights (`?table=posts&days=30`; the chart's days by default) as a CSV
 * attachment; with `&post=<id>`, one of that post's tables (days, languages, referrers, sources).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const app = getApp(context);
  const params = new URL(request.url).searchParams;
  const days = parseRange(params.get("days"));
  // Without a table: the chart's days.
  const table = params.get("table") ?? "days";
  if (days === null || !isInsightTable(table)) throw data(null, { status: 400 });
  const postId = params.get("post");
  let rows: Array<Array<string | number | null>>;
  let name: string;
  if (postId) {
    // One post's tables (/admin/insights/posts/:id).
    if (!isPostInsightTable(table)) throw data(null, { status: 400 });
    if (!(await postTitles(app.db, [postId], "en")).has(postId)) throw data(null, { status: 404 });
    const report = await postInsightsReport(app.db, { postId, days });
    rows =
      table === "days"
        ? [["day", "views"], ...report.series.map((d) => [d.day, d.views])]
        : [["key", "count"], ...report[table].map((r) => [r.key, r.count])];
    name = `insights-post-${postId}-${table}-${report.from}-${report.to}`;
  } else {
    const report = await insightsReport(app.db, {
      days,
      locale: getRequest(context).locale,
      retentionDays: app.env.insights.retentionDays,
    });
    rows =
      table === "days"
        ? [["day", "views", "visitors"], ...report.series.map((d) => [d.day, d.views, d.visitors])]
        : table === "posts"
          ? [["postId", "title", "views"], ...report.posts.map((p) => [p.id, p.title, p.count])]
          : table === "newsletter"
            ? [
                ["sendId", "postId", "title", "startedAt", "sent", "failed", "unsubscribes", "reads"],
                ...report.newsletter.map((r) => [
                  r.sendId,
                  r.postId,
                  r.title,
                  r.startedAt,
                  r.sent,
                  r.failed,
                  r.unsubscribes,
                  r.reads,
                ]),
              ]
            : table === "feedReaders"
              ? [["app", "subscribers", "fetches"], ...report.feedReaders.map((r) => [r.app, r.subscribers, r.fetches])]
              : table === "fediverse"
                ? [
                    ["postId", "title", "likes", "boosts", "replies", "reads"],
                    ...report.fediverse.posts.map((r) => [r.postId, r.title, r.likes, r.boosts, r.replies, r.reads]),
                  ]
                : [["key", "count"], ...report[table].map((r) => [r.key, r.count])];
    name = `insights-${table}-${report.from}-${report.to}`;
  }
  // The day's entries past its limit, counted together, under a name a spreadsheet shows.
  for (const row of rows) if (row[0] === OTHER_KEY) row[0] = "(other)";
  return new Response(toCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name.replace(/[^\w.-]/g, "_")}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
