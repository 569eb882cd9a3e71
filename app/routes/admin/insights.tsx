import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { ChartData, CountTable, InsightTable, RangeNav } from "../../components/admin/insight-parts.tsx";
import { LineChart, Sparkline } from "../../components/admin/line-chart.tsx";
import { Link } from "../../lean/link.tsx";
import { NOT_FOUND_SEPARATOR, OTHER_KEY, parseRange, SAME_SITE } from "../../lib/insights.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { type InsightsReport, insightsReport } from "../../server/insights/report.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
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
  const [report, settings] = await Promise.all([
    insightsReport(app.db, { days, locale, retentionDays: app.env.insights.retentionDays }),
    requestSettings(context),
  ]);
  const host = new URL(app.env.publicUrl).host;
  const handles = {
    zh: `@${settings.fediverse.handles.zh}@${host}`,
    en: `@${settings.fediverse.handles.en}@${host}`,
  };
  return { report, retentionDays: app.env.insights.retentionDays, handles };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin:insights.title", [NOINDEX]);
}

/** Feed reader apps: the subscribers they report and how often they fetched our feeds. */
function FeedReaders({ readers, days }: { readers: InsightsReport["feedReaders"]; days: number }) {
  const { t } = useTranslation("admin");
  return (
    <InsightTable
      id="feedReaders"
      title={t("insights.feedReaders")}
      csvHref={`/admin/insights.csv?table=feedReaders&days=${days}`}
      note={t("insights.feedReadersNote")}
      columns={[
        { label: t("insights.readerApp") },
        { label: t("insights.subscribers"), numeric: true },
        { label: t("insights.fetches"), numeric: true },
      ]}
      rows={readers.map((r) => ({
        key: r.app,
        cells: [
          r.app === OTHER_KEY ? <em key="other">{t("insights.otherKeys")}</em> : r.app,
          r.subscribers ?? (
            <>
              <span aria-hidden="true">–</span>
              <span className="sr-only">{t("insights.notReported")}</span>
            </>
          ),
          r.fetches,
        ],
      }))}
    />
  );
}

/** The newsletters of the period: mails sent, readers who left through them, reads they brought. */
function Newsletter({ sends, days }: { sends: InsightsReport["newsletter"]; days: number }) {
  const { t } = useTranslation("admin");
  return (
    <InsightTable
      id="newsletter"
      title={t("insights.newsletter")}
      csvHref={`/admin/insights.csv?table=newsletter&days=${days}`}
      empty={t("insights.noNewsletter")}
      columns={[
        { label: t("insights.post") },
        { label: t("insights.mailsSent"), numeric: true },
        { label: t("insights.unsubscribes"), numeric: true },
        { label: t("insights.newsletterReads"), numeric: true },
      ]}
      rows={sends.map((s) => ({
        key: s.sendId,
        cells: [
          <Link key="post" to={`/admin/newsletter/${s.sendId}`} className="text-blue-800 underline dark:text-blue-300">
            {s.title ?? t("insights.deletedPost")}
          </Link>,
          <>
            {s.sent}
            {s.failed > 0 ? (
              <span className="text-red-700 dark:text-red-400">
                {" "}
                ({t("insights.failedMails", { count: s.failed })})
              </span>
            ) : null}
          </>,
          s.unsubscribes,
          s.reads,
        ],
      }))}
    />
  );
}

/** Followers per account, and what each post got from the Fediverse in the period. */
function Fediverse({
  reach,
  handles,
  days,
}: {
  reach: InsightsReport["fediverse"];
  handles: Record<"zh" | "en", string>;
  days: number;
}) {
  const { t } = useTranslation("admin");
  return (
    <InsightTable
      id="fediverse"
      title={t("insights.fediverse")}
      csvHref={`/admin/insights.csv?table=fediverse&days=${days}`}
      empty={t("insights.fediverseNone")}
      note={t("insights.fediverseNote")}
      lead={
        <ul className="mt-2 space-y-1 text-sm" data-testid="insights-fediverse-followers">
          {reach.followers.map((f) => (
            <li key={f.actor}>
              {t("insights.fediverseFollowers", { count: f.total, added: f.added, handle: handles[f.actor] })}
            </li>
          ))}
        </ul>
      }
      columns={[
        { label: t("insights.post") },
        { label: t("insights.likes"), numeric: true },
        { label: t("insights.boosts"), numeric: true },
        { label: t("insights.replies"), numeric: true },
        { label: t("insights.fediverseReads"), numeric: true },
      ]}
      rows={reach.posts.map((p) => ({
        key: p.postId,
        cells: [
          p.title ? (
            <Link key="post" to={`/posts/detail/${p.postId}`} className="text-blue-800 underline dark:text-blue-300">
              {p.title}
            </Link>
          ) : (
            t("insights.deletedPost")
          ),
          p.likes,
          p.boosts,
          p.replies,
          p.reads,
        ],
      }))}
    />
  );
}

export default function Insights({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { report, retentionDays } = loaderData;
  const known = (group: "pageKinds" | "sourceNames" | "localeNames", key: string) =>
    t(`insights.${group}.${key}`, { defaultValue: key });
  // A day's entries past its limit are counted together: one "Other" row, no link or parsing.
  const plain = (rows: ReadonlyArray<{ key: string; count: number }>, label = (k: string): ReactNode => k) =>
    rows.map((r) => ({
      key: r.key,
      label: r.key === OTHER_KEY ? <em>{t("insights.otherKeys")}</em> : label(r.key),
      count: r.count,
    }));
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
        <ChartData
          testId="insights-days"
          title={t("insights.chartTitle", { count: report.days })}
          columns={[t("insights.views"), t("insights.visitors")]}
          days={report.series.map((d) => ({ day: d.day, values: [d.views, d.visitors] }))}
          csvHref={`/admin/insights.csv?table=days&days=${report.days}`}
        />
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
        <Fediverse reach={report.fediverse} handles={loaderData.handles} days={report.days} />
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
