import { data } from "react-router";
import { toCsv } from "../../lib/csv.ts";
import { isInsightTable, parseRange } from "../../lib/insights.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { insightsReport } from "../../server/insights/report.server.ts";
import type { Route } from "./+types/insights-csv";

/** One table of /admin/insights (`?table=posts&days=30`; the chart's days by default) as a CSV attachment. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const app = getApp(context);
  const params = new URL(request.url).searchParams;
  const days = parseRange(params.get("days"));
  // Without a table: the chart's days.
  const table = params.get("table") ?? "days";
  if (days === null || !isInsightTable(table)) throw data(null, { status: 400 });
  const report = await insightsReport(app.db, {
    days,
    locale: getRequest(context).locale,
    retentionDays: app.env.insights.retentionDays,
  });
  const rows: Array<Array<string | number | null>> =
    table === "days"
      ? [["day", "views", "visitors"], ...report.series.map((d) => [d.day, d.views, d.visitors])]
      : table === "posts"
        ? [["postId", "title", "views"], ...report.posts.map((p) => [p.id, p.title, p.count])]
        : [["key", "count"], ...report[table].map((r) => [r.key, r.count])];
  return new Response(toCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="insights-${table}-${report.from}-${report.to}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
