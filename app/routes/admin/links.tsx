import { useTranslation } from "react-i18next";
import { AdminListHeader, AdminSearch, ConfirmDelete, useListUrls } from "../../components/admin/list-parts.tsx";
import { AdminTable, OrderedRowActions } from "../../components/admin/list-table.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import { deleteIntent, moveIntent, rowActions } from "../../server/admin/row-actions.server.ts";
import { deleteLink, getLink, listLinksForAdmin, moveLink } from "../../server/site/links.server.ts";
import { getSiteSettings } from "../../server/site/site-settings.server.ts";
import type { Route } from "./+types/links";

const PAGE_SIZE = 20;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url } = await adminListRequest(args);
  const [list, settings] = await Promise.all([
    listLinksForAdmin(app.db, { q, page, pageSize: PAGE_SIZE }),
    getSiteSettings(app.db),
  ]);
  const confirming = await pendingDelete(url, (id) => getLink(app.db, id));
  return { list, q, confirming, offset: (list.page - 1) * PAGE_SIZE, footerLinks: settings.footerLinks };
}

export const action = rowActions({
  type: "link",
  listPath: "/admin/links",
  load: getLink,
  title: (link) => link.name,
  intents: { move: moveIntent(moveLink), delete: deleteIntent(deleteLink) },
});

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminLinks:links.title", [NOINDEX]);
}

export default function LinksAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const { t: ta } = useTranslation("admin");
  const m = useMessage();
  const { list, q, confirming, offset, footerLinks } = loaderData;
  const { back, withParams } = useListUrls("/admin/links");

  return (
    <section aria-labelledby="links-admin-title" className="space-y-6">
      <AdminListHeader
        id="links-admin-title"
        title={t("links.title")}
        create={{ to: "/admin/links/new", label: t("links.new") }}
      />
      <p className="text-zinc-700 dark:text-zinc-300">
        {t("links.intro")} {footerLinks ? t("links.footerOn") : t("links.footerOff")}
      </p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("links.deleteConfirm", { name: confirming.name })} id={confirming.id} back={back} />
      )}

      <AdminSearch id="links-q" label={t("links.search")} button={ta("list.search")} q={q} />

      <AdminTable
        columns={[t("links.order"), t("links.name"), t("links.url"), t("links.status"), t("links.actions")]}
        rowCount={list.items.length}
        pagination={{ page: list.page, pageCount: list.pageCount, withParams }}
        empty={q ? t("links.noMatch", { q }) : t("links.empty")}
      >
        {list.items.map((link, i) => {
          const position = offset + i;
          return (
            <tr key={link.id} className="border-b border-zinc-100 align-middle dark:border-zinc-900">
              <td className="py-2 pr-3 tabular-nums">{position + 1}</td>
              <td className="py-2 pr-3">{link.name}</td>
              <td className="max-w-xs truncate py-2 pr-3">{link.url}</td>
              <td className="py-2 pr-3">{link.enabled ? t("links.enabled") : t("links.disabled")}</td>
              <OrderedRowActions
                id={link.id}
                name={link.name}
                position={position}
                total={list.total}
                back={back}
                editTo={`/admin/links/${link.id}`}
                deleteTo={withParams({ confirmDelete: link.id })}
              />
            </tr>
          );
        })}
      </AdminTable>
    </section>
  );
}
