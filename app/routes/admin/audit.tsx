import { useTranslation } from "react-i18next";
import { useActorName } from "../../components/admin/audit-parts.tsx";
import { AdminListHeader, AdminPagination, useListUrls } from "../../components/admin/list-parts.tsx";
import {
  BarSelect,
  CardCell,
  CardRow,
  CardTable,
  EmptyState,
  FilterBar,
  ShortTime,
  useListTimeZone,
} from "../../components/admin/table-parts.tsx";
import { Link } from "../../lean/link.tsx";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { auditFilterChoices, listAudit } from "../../server/admin/audit-log.server.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import type { Route } from "./+types/audit";

const PAGE_SIZE = 50;
const BASE = "/admin/audit";

/** The audit log: who changed what, and when (admins only, like every admin page). */
export async function loader(args: Route.LoaderArgs) {
  const { app, page, url, locale } = await adminListRequest(args);
  const filters = {
    action: (url.searchParams.get("action") ?? "").slice(0, 100),
    actor: (url.searchParams.get("actor") ?? "").slice(0, 100),
  };
  const [list, choices] = await Promise.all([
    listAudit(app.db, { filters, page, pageSize: PAGE_SIZE }),
    auditFilterChoices(app.db),
  ]);
  return { list, choices, filters, locale };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminTools:audit.title", [NOINDEX]);
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminTools");
  const { list, choices, filters, locale } = loaderData;
  const { withParams } = useListUrls(BASE);
  const zone = useListTimeZone();
  const actorName = useActorName();
  const filtered = Boolean(filters.action || filters.actor);
  const col = {
    when: t("audit.col.when", { zone }),
    who: t("audit.col.who"),
    action: t("audit.col.action"),
    object: t("audit.col.object"),
  };

  return (
    <section aria-labelledby="audit-title" className="space-y-6">
      <AdminListHeader id="audit-title" title={t("audit.title")} />
      <p className="text-zinc-700 dark:text-zinc-300">{t("audit.intro")}</p>

      <FilterBar label={t("audit.filters")} testId="audit-filters" button={t("audit.filter")}>
        <BarSelect
          id="audit-action"
          name="action"
          label={t("audit.action")}
          any={t("audit.anyAction")}
          value={filters.action}
          options={choices.actions.map((a) => ({ value: a, label: a }))}
          inline
        />
        <BarSelect
          id="audit-actor"
          name="actor"
          label={t("audit.actor")}
          any={t("audit.anyone")}
          value={filters.actor}
          options={choices.actors.map((a) => ({ value: a.value, label: actorName(a.actor) }))}
          inline
        />
      </FilterBar>

      {list.items.length === 0 ? (
        filtered ? (
          <EmptyState text={t("audit.noMatch")} action={{ to: BASE, label: t("audit.clearFilters") }} />
        ) : (
          <EmptyState text={t("audit.empty")} />
        )
      ) : (
        <>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("audit.count", { count: list.total })}</p>
          <CardTable
            testId="audit-table"
            caption={t("audit.caption")}
            columns={[{ label: col.when }, { label: col.who }, { label: col.action }, { label: col.object }]}
          >
            {list.items.map((entry) => (
              <CardRow key={entry.id}>
                <CardCell label={col.when}>
                  <ShortTime iso={entry.createdAt} locale={locale} zone={zone} />
                </CardCell>
                <CardCell label={col.who} className="break-words">
                  {actorName(entry.actor)}
                </CardCell>
                <CardCell label={col.action}>
                  <code className="whitespace-nowrap text-xs">{entry.action}</code>
                </CardCell>
                <CardCell label={col.object} className="min-w-0 break-words">
                  {entry.href ? (
                    <Link to={entry.href} className="text-blue-800 underline dark:text-blue-300">
                      {entry.title ?? t("audit.object", { type: entry.entityType })}
                    </Link>
                  ) : (
                    <span>{entry.title ?? t("audit.object", { type: entry.entityType })}</span>
                  )}
                  {entry.gone && (
                    <span className="ml-1 text-xs text-zinc-600 dark:text-zinc-400">{t("audit.gone")}</span>
                  )}
                </CardCell>
              </CardRow>
            ))}
          </CardTable>
          <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
        </>
      )}
    </section>
  );
}
