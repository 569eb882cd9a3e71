import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { CountTable, RangeNav } from "../../components/admin/insight-parts.tsx";
import { LineChart, Sparkline } from "../../components/admin/line-chart.tsx";
import { NOT_FOUND_SEPARATOR, parseRange, SAME_SITE } from "../../lib/insights.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { type InsightsReport, insightsReport } from "../../server/insights/report.server.ts";
import type { Route } from "./+types/insights";

// /admin/insights?days=7|30|90|365: what readers read, in which language and from where
// (docs/decisions/021-insights.md). Admins only.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const app = getApp(context);
  const days = parseRange(new URL(request.url).searchParams.get("days"));
  if (days === null) throw data(null, { status: 400 });
  // What this instance counted in the last seconds shows at once (others write within seconds).
  await app.insights.flush().catch(() => {});
  const locale = getRequest(context).locale;
  const report = await insightsReport(app.db, { days, locale, retentionDays: app.env.insights.retentionDays });
  return { report, retentionDays: app.env.insights.retentionDays };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin:insights.title", [NOINDEX]);
}

/** Feed reader apps: the subscribers they report and how often they fetched our feeds. */
function FeedReaders({ readers, days }: { readers: InsightsReport["feedReaders"]; days: number }) {
  const { t } = useTranslation("admin");
  return (
    <section aria-labelledby="insights-feedReaders" className="min-w-0" data-testid="insights-feedReaders">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="insights-feedReaders" className="text-lg font-semibold">
          {t("insights.feedReaders")}
        </h2>
        {readers.length > 0 ? (
          <a
            href={`/admin/insights.csv?table=feedReaders&days=${days}`}
            download
            className="text-sm text-blue-800 underline dark:text-blue-300"
            aria-label={t("insights.downloadCsv", { table: t("insights.feedReaders") })}
          >
            {t("insights.csv")}
          </a>
        ) : null}
      </div>
      {readers.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t("insights.none")}</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-1.5 pr-3">
                {t("insights.readerApp")}
              </th>
              <th scope="col" className="py-1.5 pr-3 text-right">
                {t("insights.subscribers")}
              </th>
              <th scope="col" className="py-1.5 text-right">
                {t("insights.fetches")}
              </th>
            </tr>
          </thead>
          <tbody>
            {readers.map((r) => (
              <tr key={r.app} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-1.5 pr-3 break-all">{r.app}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">
                  {r.subscribers ?? (
                    <>
                      <span aria-hidden="true">–</span>
                      <span className="sr-only">{t("insights.notReported")}</span>
                    </>
                  )}
                </td>
                <td className="py-1.5 text-right tabular-nums">{r.fetches}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">{t("insights.feedReadersNote")}</p>
    </section>
  );
}

/** The newsletters of the period: mails sent, readers who left through them, reads they brought. */
function Newsletter({ sends, days }: { sends: InsightsReport["newsletter"]; days: number }) {
  const { t } = useTranslation("admin");
  return (
    <section aria-labelledby="insights-newsletter" className="min-w-0" data-testid="insights-newsletter">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="insights-newsletter" className="text-lg font-semibold">
          {t("insights.newsletter")}
        </h2>
        {sends.length > 0 ? (
          <a
            href={`/admin/insights.csv?table=newsletter&days=${days}`}
            download
            className="text-sm text-blue-800 underline dark:text-blue-300"
            aria-label={t("insights.downloadCsv", { table: t("insights.newsletter") })}
          >
            {t("insights.csv")}
          </a>
        ) : null}
      </div>
      {sends.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t("insights.noNewsletter")}</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-1.5 pr-3">
                {t("insights.post")}
              </th>
              <th scope="col" className="py-1.5 pr-3 text-right">
                {t("insights.mailsSent")}
              </th>
              <th scope="col" className="py-1.5 pr-3 text-right">
                {t("insights.unsubscribes")}
              </th>
              <th scope="col" className="py-1.5 text-right">
                {t("insights.newsletterReads")}
              </th>
            </tr>
          </thead>
          <tbody>
            {sends.map((s) => (
              <tr key={s.sendId} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-1.5 pr-3 break-all">
                  <Link to={`/admin/newsletter/${s.sendId}`} className="text-blue-800 underline dark:text-blue-300">
                    {s.title ?? t("insights.deletedPost")}
                  </Link>
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums">
                  {s.sent}
                  {s.failed > 0 ? (
                    <span className="text-red-700 dark:text-red-400">
                      {" "}
                      ({t("insights.failedMails", { count: s.failed })})
                    </span>
                  ) : null}
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{s.unsubscribes}</td>
                <td className="py-1.5 text-right tabular-nums">{s.reads}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function Insights({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { report, retentionDays } = loaderData;
  const known = (group: "pageKinds" | "sourceNames" | "localeNames", key: string) =>
    t(`insights.${group}.${key}`, { defaultValue: key });
  const plain = (rows: ReadonlyArray<{ key: string; count: number }>, label = (k: string): ReactNode => k) =>
    rows.map((r) => ({ key: r.key, label: label(r.key), count: r.count }));
  const maxDay = Math.max(0, ...report.series.flatMap((d) => [d.views, d.visitors]));
  return (
    <section aria-labelledby="insights-title" className="space-y-8">
      <header className="space-y-2">
        <h1 id="insights-title" className="text-3xl font-bold tracking-tight">
          {t("insights.title")}
        </h1>
        <p className="text-zinc-600 dark:text-zinc-400">{t("insights.intro")}</p>
      </header>
      <RangeNav base="/admin/insights" current={report.days} />
      <dl className="grid grid-cols-2 gap-4 sm:max-w-md">
        <div className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
          <dt className="text-sm text-zinc-600 dark:text-zinc-400">{t("insights.views")}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid="insights-views">
            {report.totals.views}
          </dd>
        </div>
        <div className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
          <dt className="text-sm text-zinc-600 dark:text-zinc-400">{t("insights.visitors")}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid="insights-visitors">
            {report.totals.visitors}
          </dd>
        </div>
      </dl>
      <section aria-labelledby="insights-chart-title" className="space-y-3">
        <h2 id="insights-chart-title" className="text-lg font-semibold">
          {t("insights.chartTitle", { count: report.days })}
        </h2>
        <LineChart
          title={t("insights.chartTitle", { count: report.days })}
          description={t("insights.chartDesc", {
            from: report.from,
            to: report.to,
            views: report.totals.views,
            visitors: report.totals.visitors,
            max: maxDay,
          })}
          labels={report.series.map((d) => d.day)}
          lines={[
            {
              label: t("insights.views"),
              values: report.series.map((d) => d.views),
              strokeClass: "stroke-blue-700 dark:stroke-sky-400",
            },
            {
              label: t("insights.visitors"),
              values: report.series.map((d) => d.visitors),
              strokeClass: "stroke-emerald-700 dark:stroke-emerald-400",
              dash: "6 4",
            },
          ]}
        />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("insights.visitorsNote")}</p>
        <details>
          <summary className="cursor-pointer text-sm text-blue-800 dark:text-blue-300">
            {t("insights.showData")}
          </summary>
          <table className="mt-2 text-left text-sm" data-testid="insights-days">
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                <th scope="col" className="py-1 pr-4">
                  {t("insights.day")}
                </th>
                <th scope="col" className="py-1 pr-4 text-right">
                  {t("insights.views")}
                </th>
                <th scope="col" className="py-1 text-right">
                  {t("insights.visitors")}
                </th>
              </tr>
            </thead>
            <tbody>
              {report.series.map((d) => (
                <tr key={d.day} className="border-b border-zinc-100 dark:border-zinc-900">
                  <td className="py-1 pr-4 tabular-nums">{d.day}</td>
                  <td className="py-1 pr-4 text-right tabular-nums">{d.views}</td>
                  <td className="py-1 text-right tabular-nums">{d.visitors}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <a
            href={`/admin/insights.csv?table=days&days=${report.days}`}
            download
            className="mt-2 inline-block text-sm text-blue-800 underline dark:text-blue-300"
          >
            {t("insights.downloadCsv", { table: t("insights.chartTitle", { count: report.days }) })}
          </a>
        </details>
      </section>
      <div className="grid gap-8 lg:grid-cols-2">
        <CountTable
          id="posts"
          csvHref={`/admin/insights.csv?table=posts&days=${report.days}`}
          title={t("insights.topPosts")}
          column={t("insights.post")}
          rows={report.posts.map((p) => ({
            key: p.id,
            label: (
              <span className="flex items-center justify-between gap-3">
                {p.title ? (
                  <Link to={`/posts/detail/${p.id}`} className="text-blue-800 underline dark:text-blue-300">
                    {p.title}
                  </Link>
                ) : (
                  t("insights.deletedPost")
                )}
                <Sparkline values={p.daily} />
              </span>
            ),
            count: p.count,
          }))}
        />
        <CountTable
          id="languages"
          csvHref={`/admin/insights.csv?table=languages&days=${report.days}`}
          title={t("insights.languages")}
          column={t("insights.language")}
          share
          rows={plain(report.languages, (k) => known("localeNames", k))}
        />
        <CountTable
          id="referrers"
          csvHref={`/admin/insights.csv?table=referrers&days=${report.days}`}
          title={t("insights.referrers")}
          column={t("insights.referrer")}
          share
          rows={plain(report.referrers)}
        />
        <CountTable
          id="sources"
          csvHref={`/admin/insights.csv?table=sources&days=${report.days}`}
          title={t("insights.sources")}
          column={t("insights.source")}
          rows={plain(report.sources, (k) => known("sourceNames", k))}
        />
        <FeedReaders readers={report.feedReaders} days={report.days} />
        <Newsletter sends={report.newsletter} days={report.days} />
        <CountTable
          id="pages"
          csvHref={`/admin/insights.csv?table=pages&days=${report.days}`}
          title={t("insights.pages")}
          column={t("insights.page")}
          share
          rows={plain(report.pages, (k) => known("pageKinds", k))}
        />
        <CountTable
          id="countries"
          csvHref={`/admin/insights.csv?table=countries&days=${report.days}`}
          title={t("insights.countries")}
          column={t("insights.country")}
          share
          rows={plain(report.countries)}
        />
        <CountTable
          id="searches"
          csvHref={`/admin/insights.csv?table=searches&days=${report.days}`}
          title={t("insights.searches")}
          column={t("insights.query")}
          rows={plain(report.searches)}
        />
        <CountTable
          id="zeroSearches"
          csvHref={`/admin/insights.csv?table=zeroSearches&days=${report.days}`}
          title={t("insights.zeroSearches")}
          column={t("insights.query")}
          rows={plain(report.zeroSearches)}
        />
        <CountTable
          id="notFound"
          csvHref={`/admin/insights.csv?table=notFound&days=${report.days}`}
          title={t("insights.notFound")}
          column={t("insights.path")}
          rows={plain(report.notFound, (k) => {
            const [path = "", from = ""] = k.split(NOT_FOUND_SEPARATOR);
            const where = from ? `${path} ← ${from === SAME_SITE ? t("insights.internal") : from}` : path;
            return (
              <span className="flex items-baseline justify-between gap-3">
                <span>{where}</span>
                <Link
                  to={`/admin/redirects/new?${new URLSearchParams({ from: path })}`}
                  className="shrink-0 text-blue-800 underline dark:text-blue-300"
                  aria-label={t("insights.addRedirectFor", { path })}
                >
                  {t("insights.addRedirect")}
                </Link>
              </span>
            );
          })}
        />
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("insights.textKept", { count: retentionDays })}</p>
    </section>
  );
}
