import { useTranslation } from "react-i18next";
import { AdminListHeader, AdminSearch, ConfirmDelete, useListUrls } from "../../components/admin/list-parts.tsx";
import { ActionsCell, AdminTable, EditDeleteLinks, RowLink } from "../../components/admin/list-table.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { termName } from "../../lib/terms.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import { rowActions } from "../../server/admin/row-actions.server.ts";
import { deleteSeries, getSeries, listSeriesForAdmin } from "../../server/taxonomy/series.server.ts";
import type { Route } from "./+types/series";

const PAGE_SIZE = 25;
const LIST_PATH = "/admin/series";

// /admin/series: every series with its post count; edit, or delete (its posts leave it).
export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const list = await listSeriesForAdmin(app.db, { q, page, pageSize: PAGE_SIZE });
  const confirming = await pendingDelete(url, (id) => getSeries(app.db, id));
  return { list, q, confirming, locale };
}

export const action = rowActions({
  type: "series",
  listPath: LIST_PATH,
  load: getSeries,
  title: (series) => series.nameEn,
  intents: {
    delete: {
      apply: async (trx, series) => {
        await deleteSeries(trx, series.id);
        return { posts: series.postCount };
      },
      flash: "flash.deleted",
    },
  },
});

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin:series.title", [NOINDEX]);
}

export default function SeriesAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const m = useMessage();
  const { list, q, confirming, locale } = loaderData;
  const { back, withParams } = useListUrls(LIST_PATH);

  return (
    <section aria-labelledby="series-title" className="space-y-6">
      <AdminListHeader
        id="series-title"
        title={t("series.title")}
        create={{ to: `${LIST_PATH}/new`, label: t("series.new") }}
      />
      <p className="text-zinc-600 dark:text-zinc-400">{t("series.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete
          text={t("series.deleteConfirm", { name: termName(confirming, locale), count: confirming.postCount })}
          id={confirming.id}
          back={back}
        />
      )}

      <AdminSearch id="series-q" label={t("series.search")} button={t("list.search")} q={q} />

      <AdminTable
        columns={[t("terms.nameEn"), t("terms.nameZh"), t("terms.slug"), t("terms.posts"), t("swapers.actions")]}
        rowCount={list.items.length}
        pagination={{ page: list.page, pageCount: list.pageCount, withParams }}
        empty={q ? t("series.noMatch", { q }) : t("series.empty")}
      >
        {list.items.map((series) => (
          <tr key={series.id} className="border-b border-zinc-100 dark:border-zinc-900">
            <td className="py-2 pr-3">{series.nameEn}</td>
            <td className="py-2 pr-3" lang="zh-CN">
              {series.nameZh}
            </td>
            <td className="py-2 pr-3">
              <code>{series.slug}</code>
            </td>
            <td className="py-2 pr-3 tabular-nums">{series.postCount}</td>
            <ActionsCell>
              <RowLink to={`/series/${series.slug}`} text={t("terms.view")} />
              <EditDeleteLinks
                name={termName(series, locale)}
                editTo={`${LIST_PATH}/${series.id}`}
                deleteTo={withParams({ confirmDelete: series.id })}
              />
            </ActionsCell>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}
