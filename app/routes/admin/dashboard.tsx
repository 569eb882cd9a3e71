import { useTranslation } from "react-i18next";
import { TableScroll } from "../../components/admin/list-parts.tsx";
import { LocalTime } from "../../components/ui/local-time.tsx";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { adminCounts } from "../../server/repos/admin-stats.server.ts";
import { latestAudit } from "../../server/repos/audit.server.ts";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const [counts, changes] = await Promise.all([adminCounts(db), latestAudit(db, 20)]);
  return { counts, changes, locale: getRequest(context).locale };
}

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

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { counts, changes, locale } = loaderData;
  return (
    <section aria-labelledby="dashboard-title" className="space-y-8">
      <h1 id="dashboard-title" className="text-3xl font-bold tracking-tight">
        {t("dashboard.title")}
      </h1>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Figure label={`${t("dashboard.posts")} · ${t("dashboard.published")}`} value={counts.posts.published} />
        <Figure label={`${t("dashboard.posts")} · ${t("dashboard.draft")}`} value={counts.posts.draft} />
        <Figure label={`${t("dashboard.posts")} · ${t("dashboard.scheduled")}`} value={counts.posts.scheduled} />
        <Figure label={`${t("dashboard.posts")} · ${t("dashboard.trash")}`} value={counts.posts.trash} />
        <Figure label={t("dashboard.pendingComments")} value={counts.pendingComments} />
        <Figure label={t("dashboard.users")} value={counts.users} />
        <Figure label={t("dashboard.subscribers")} value={counts.subscribers.confirmed} />
        <Figure label={t("dashboard.pendingSubscribers")} value={counts.subscribers.pending} />
      </dl>
      <section aria-labelledby="changes-title">
        <h2 id="changes-title" className="text-xl font-semibold">
          {t("dashboard.latestChanges")}
        </h2>
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
                    <td className="py-2 pr-4">{entry.actorEmail}</td>
                    <td className="py-2">
                      <code>{entry.action}</code>
                      {typeof entry.details.title === "string" && entry.details.title
                        ? ` · ${entry.details.title}`
                        : ""}
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
