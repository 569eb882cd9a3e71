import { useTranslation } from "react-i18next";
import { useActorName } from "../../components/admin/audit-parts.tsx";
import { TableScroll } from "../../components/admin/list-table.tsx";
import { LocalTime } from "../../components/ui/local-time.tsx";
import { Link } from "../../lean/link.tsx";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { adminCounts, lastDaysFigures } from "../../server/admin/admin-stats.server.ts";
import { listAudit } from "../../server/admin/audit-log.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { failedDeliveryCount } from "../../server/federation/deliveries.server.ts";
import { countSendsWithFailures } from "../../server/newsletter/admin-newsletter.server.ts";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const app = getApp(context);
  const { db } = app;
  // Reads this instance counted in the last seconds are in the week's figure at once.
  await app.insights.flush().catch(() => {});
  const [counts, changes, failedSends, failedDeliveries, lastDays] = await Promise.all([
    adminCounts(db),
    listAudit(db, { filters: { action: "", actor: "" }, page: 1, pageSize: 20 }).then((p) => p.items),
    countSendsWithFailures(db),
    failedDeliveryCount(db),
    lastDaysFigures(db, { days: LAST_DAYS }),
  ]);
  return { counts, changes, failedSends, failedDeliveries, lastDays, locale: getRequest(context).locale };
}

/** The dashboard's "last days": a week, Insights' shortest range (so its link shows the same days). */
const LAST_DAYS = 7;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin:dashboard.title", [NOINDEX]);
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * A count that opens the list it counts. The whole card is the link; its name reads
 * "3 Drafts". A zero is shown quieter, so what waits stands out.
 */
function CountLink({ to, label, value, testId }: { to: string; label: string; value: number; testId: string }) {
  return (
    <li>
      <Link
        to={to}
        data-testid={testId}
        className={`block h-full rounded-lg border p-4 hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-zinc-900 ${
          value > 0 ? "border-amber-300 dark:border-amber-700" : "border-zinc-200 dark:border-zinc-800"
        }`}
      >
        <span
          className={`block text-2xl font-semibold tabular-nums ${value > 0 ? "" : "text-zinc-600 dark:text-zinc-400"}`}
        >
          {value}
        </span>{" "}
        <span className="mt-1 block text-sm text-blue-800 underline-offset-2 hover:underline dark:text-blue-300">
          {label}
        </span>
      </Link>
    </li>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { counts, changes, failedSends, failedDeliveries, lastDays, locale } = loaderData;
  const actorName = useActorName();
  const { t: tTools } = useTranslation("adminTools");
  const waiting = [
    {
      testId: "needs-drafts",
      to: "/admin/blog?status=draft",
      label: t("dashboard.needs.drafts"),
      value: counts.posts.draft,
    },
    {
      testId: "needs-scheduled",
      to: "/admin/blog?status=scheduled",
      label: t("dashboard.needs.scheduled"),
      value: counts.posts.scheduled,
    },
    {
      testId: "needs-comments",
      to: "/admin/comments?status=pending",
      label: t("dashboard.needs.comments"),
      value: counts.pendingComments,
    },
    {
      testId: "needs-newsletter",
      to: "/admin/newsletter?show=failed#newsletter-sends",
      label: t("dashboard.needs.newsletter"),
      value: failedSends,
    },
    {
      testId: "needs-fediverse",
      to: "/admin/fediverse?log=failures#fediverse-deliveries",
      label: t("dashboard.needs.fediverse"),
      value: failedDeliveries,
    },
  ];
  const nothingWaits = waiting.every((w) => w.value === 0);
  return (
    <section aria-labelledby="dashboard-title" className="space-y-8">
      <h1 id="dashboard-title" className="text-3xl font-bold tracking-tight">
        {t("dashboard.title")}
      </h1>
      <section aria-labelledby="needs-title" className="space-y-3">
        <h2 id="needs-title" className="text-xl font-semibold">
          {t("dashboard.needs.title")}
        </h2>
        {nothingWaits && <p className="text-zinc-600 dark:text-zinc-400">{t("dashboard.needs.nothing")}</p>}
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {waiting.map((w) => (
            <CountLink key={w.testId} {...w} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="last-days-title" className="space-y-3">
        <h2 id="last-days-title" className="text-xl font-semibold">
          {t("dashboard.lastDays.title", { count: lastDays.days })}
        </h2>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <CountLink
            testId="last-reads"
            to={`/admin/insights?days=${lastDays.days}`}
            label={t("dashboard.lastDays.reads")}
            value={lastDays.views}
          />
          <CountLink
            testId="last-visitors"
            to={`/admin/insights?days=${lastDays.days}`}
            label={t("dashboard.lastDays.visitors")}
            value={lastDays.visitors}
          />
          <CountLink
            testId="last-subscribers"
            to="/admin/subscribers?status=confirmed"
            label={t("dashboard.lastDays.subscribers")}
            value={lastDays.newSubscribers}
          />
        </ul>
      </section>
      <section aria-labelledby="totals-title" className="space-y-3">
        <h2 id="totals-title" className="text-xl font-semibold">
          {t("dashboard.totals")}
        </h2>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Figure label={`${t("dashboard.posts")} · ${t("dashboard.published")}`} value={counts.posts.published} />
          <Figure label={`${t("dashboard.posts")} · ${t("dashboard.trash")}`} value={counts.posts.trash} />
          <Figure label={t("dashboard.users")} value={counts.users} />
          <Figure label={t("dashboard.subscribers")} value={counts.subscribers.confirmed} />
          <Figure label={t("dashboard.pendingSubscribers")} value={counts.subscribers.pending} />
        </dl>
      </section>
      <section aria-labelledby="changes-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="changes-title" className="text-xl font-semibold">
            {t("dashboard.latestChanges")}
          </h2>
          <Link to="/admin/audit" className="text-sm text-blue-800 underline dark:text-blue-300">
            {tTools("audit.seeAll")}
          </Link>
        </div>
        {changes.length === 0 ? (
          <p className="mt-3 text-zinc-600 dark:text-zinc-400">{t("dashboard.noChanges")}</p>
        ) : (
          <TableScroll>
            <table className="mt-3 w-full min-w-[32rem] text-left text-sm">
              <thead>
                <tr className="border-b border-zinc-200 dark:border-zinc-800">
                  <th scope="col" className="py-2 pr-4">
                    {t("dashboard.when")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("dashboard.who")}
                  </th>
                  <th scope="col" className="py-2">
                    {t("dashboard.what")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {changes.map((entry) => (
                  <tr key={entry.id} className="border-b border-zinc-100 dark:border-zinc-900">
                    <td className="py-2 pr-4 whitespace-nowrap">
                      <LocalTime iso={entry.createdAt} locale={locale} />
                    </td>
                    <td className="py-2 pr-4">{actorName(entry.actor)}</td>
                    <td className="py-2">
                      <code>{entry.action}</code>
                      {entry.title ? ` · ${entry.title}` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </section>
  );
}
