import { useTranslation } from "react-i18next";
import { AdminListHeader, AdminSearch, ConfirmDelete, useListUrls } from "../../components/admin/list-parts.tsx";
import { ActionsCell, AdminTable, EditDeleteLinks } from "../../components/admin/list-table.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { LocalTime } from "../../components/ui/local-time.tsx";
import { Link } from "../../lean/link.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import { deleteIntent, rowActions } from "../../server/admin/row-actions.server.ts";
import { getRequest } from "../../server/boot/context.server.ts";
import {
  deleteRedirect,
  getRedirect,
  listRedirectsForAdmin,
  REDIRECTS_CHANGED,
} from "../../server/redirects/redirects.server.ts";
import type { Route } from "./+types/redirects";

const PAGE_SIZE = 50;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const list = await listRedirectsForAdmin(app.db, { q, page, pageSize: PAGE_SIZE });
  const confirming = await pendingDelete(url, (id) => getRedirect(app.db, id));
  return { list, q, confirming, locale };
}

const rows = rowActions({
  type: "redirect",
  listPath: "/admin/redirects",
  load: getRedirect,
  title: (redirect) => redirect.from,
  intents: { delete: deleteIntent(deleteRedirect) },
});

// A redirect changes no rendered page: every instance reloads its redirect map only.
export async function action(args: Route.ActionArgs) {
  getRequest(args.context).changes = REDIRECTS_CHANGED;
  return rows(args);
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminLinks:redirects.title", [NOINDEX]);
}

export default function RedirectsAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const { t: ta } = useTranslation("admin");
  const m = useMessage();
  const { list, q, confirming, locale } = loaderData;
  const { back, withParams } = useListUrls("/admin/redirects");
  const link = "text-blue-800 underline dark:text-blue-300";

  return (
    <section aria-labelledby="redirects-admin-title" className="space-y-6">
      <AdminListHeader
        id="redirects-admin-title"
        title={t("redirects.title")}
        create={{ to: "/admin/redirects/new", label: t("redirects.new") }}
      />
      <p className="max-w-3xl text-zinc-700 dark:text-zinc-300">{t("redirects.intro")}</p>
      <p className="flex flex-wrap gap-4 text-sm">
        <Link to="/admin/redirects/import" className={link}>
          {t("redirects.import.open")}
        </Link>
        {/* A file download: a plain link, not client navigation. */}
        <a href="/admin/redirects.csv" download className={link}>
          {t("redirects.export")}
        </a>
      </p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("redirects.deleteConfirm", { from: confirming.from })} id={confirming.id} back={back} />
      )}

      <AdminSearch id="redirects-q" label={t("redirects.search")} button={ta("list.search")} q={q} />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("redirects.count", { count: list.total })}</p>

      <AdminTable
        columns={[
          t("redirects.from"),
          t("redirects.to"),
          t("redirects.status"),
          { label: t("redirects.hits"), numeric: true },
          t("redirects.lastHit"),
          t("redirects.source"),
          t("redirects.actions"),
        ]}
        rowCount={list.items.length}
        pagination={{ page: list.page, pageCount: list.pageCount, withParams }}
        empty={q ? t("redirects.noMatch", { q }) : t("redirects.empty")}
      >
        {list.items.map((r) => (
          <tr key={r.id} className="border-b border-zinc-100 align-middle dark:border-zinc-900">
            <td className="max-w-xs py-2 pr-3 break-all">
              <code>{r.from}</code>
            </td>
            <td className="max-w-xs py-2 pr-3 break-all">
              <code>{r.to}</code>
              {r.external && (
                <span className="ml-2 text-xs text-amber-800 dark:text-amber-300">{t("redirects.externalBadge")}</span>
              )}
            </td>
            <td className="py-2 pr-3 tabular-nums">{r.status}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{r.hits.toLocaleString(locale)}</td>
            <td className="py-2 pr-3 whitespace-nowrap">
              {r.lastHitAt ? <LocalTime iso={r.lastHitAt} locale={locale} /> : "—"}
            </td>
            <td className="py-2 pr-3">{r.note ? `${r.source} · ${r.note}` : r.source}</td>
            <ActionsCell>
              <EditDeleteLinks
                name={r.from}
                editTo={`/admin/redirects/${r.id}`}
                deleteTo={withParams({ confirmDelete: r.id })}
              />
            </ActionsCell>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}
