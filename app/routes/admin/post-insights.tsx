import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { ChartData, CountTable, RangeNav } from "../../components/admin/insight-parts.tsx";
import { LineChart } from "../../components/admin/line-chart.tsx";
import { Link } from "../../lean/link.tsx";
import { OTHER_KEY, parseRange } from "../../lib/insights.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { postTitles } from "../../server/insights/metrics.server.ts";
import { postInsightsReport } from "../../server/insights/report.server.ts";
import type { Route } from "./+types/post-insights";

// /admin/insights/posts/:id?days=7|30|90|365: one post's reads over time, by language,
// referrer and our own links (docs/decisions/021-insights.md). Admins only.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const app = getApp(context);
  const days = parseRange(new URL(request.url).searchParams.get("days"));
  if (days === null) throw data(null, { status: 400 });
  const postId = params.id;
  const title = (await postTitles(app.db, [postId], getRequest(context).locale)).get(postId);
  if (title === undefined) throw data(null, { status: 404 });
  await app.insights.flush().catch(() => {});
  const report = await postInsightsReport(app.db, { postId, days });
  return { postId, title, report };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin:insights.postTitle", [NOINDEX]);
}

export default function PostInsights({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { postId, title, report } = loaderData;
  const base = `/admin/insights/posts/${postId}`;
  const csv = (table: string) => `/admin/insights.csv?table=${table}&days=${report.days}&post=${postId}`;
  const known = (group: "sourceNames" | "localeNames", key: string) =>
    t(`insights.${group}.${key}`, { defaultValue: key });
  const rows = (list: ReadonlyArray<{ key: string; count: number }>, label = (k: string): ReactNode => k) =>
    list.map((r) => ({
      key: r.key,
      label: r.key === OTHER_KEY ? <em>{t("insights.otherKeys")}</em> : label(r.key),
      count: r.count,
    }));
  const chartTitle = t("insights.postChartTitle", { count: report.days });
  return (
    <section aria-labelledby="post-insights-title" className="space-y-8">
      <header className="space-y-2">
        <p className="text-sm">
          <Link to="/admin/insights" className="text-blue-800 underline dark:text-blue-300">
            {t("insights.title")}
          </Link>
        </p>
        <h1 id="post-insights-title" className="text-3xl font-bold tracking-tight">
          {t("insights.postHeading", { title })}
        </h1>
        <p>
          <Link to={`/posts/detail/${postId}`} className="text-blue-800 underline dark:text-blue-300">
            {t("insights.readPost")}
          </Link>
        </p>
      </header>
      <RangeNav base={base} current={report.days} />
      <dl className="sm:max-w-xs">
        <div className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
          <dt className="text-sm text-zinc-600 dark:text-zinc-400">{t("insights.views")}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid="post-insights-views">
            {report.views}
          </dd>
        </div>
      </dl>
      <section aria-labelledby="post-insights-chart" className="space-y-3" data-testid="post-insights-chart">
        <h2 id="post-insights-chart" className="text-lg font-semibold">
          {chartTitle}
        </h2>
        <LineChart
          title={chartTitle}
          description={t("insights.postChartDesc", {
            from: report.from,
            to: report.to,
            views: report.views,
            max: Math.max(0, ...report.series.map((d) => d.views)),
          })}
          labels={report.series.map((d) => d.day)}
          lines={[
            {
              label: t("insights.views"),
              values: report.series.map((d) => d.views),
              strokeClass: "stroke-blue-700 dark:stroke-sky-400",
            },
          ]}
        />
        <ChartData
          testId="post-insights-days"
          title={chartTitle}
          columns={[t("insights.views")]}
          days={report.series.map((d) => ({ day: d.day, values: [d.views] }))}
          csvHref={csv("days")}
        />
      </section>
      <div className="grid gap-8 lg:grid-cols-2">
        <CountTable
          id="languages"
          csvHref={csv("languages")}
          title={t("insights.languages")}
          column={t("insights.language")}
          share
          rows={rows(report.languages, (k) => known("localeNames", k))}
        />
        <CountTable
          id="referrers"
          csvHref={csv("referrers")}
          title={t("insights.referrers")}
          column={t("insights.referrer")}
          share
          rows={rows(report.referrers)}
        />
        <CountTable
          id="sources"
          csvHref={csv("sources")}
          title={t("insights.sources")}
          column={t("insights.source")}
          rows={rows(report.sources, (k) => known("sourceNames", k))}
        />
      </div>
    </section>
  );
}
