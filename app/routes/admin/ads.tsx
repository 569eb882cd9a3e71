import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import {
  ADMIN_BUTTON,
  AdminListHeader,
  ConfirmDelete,
  ShowingWindow,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { ActionsCell, AdminTable, EditDeleteLinks } from "../../components/admin/list-table.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { AD_PLACEMENTS, AD_SORTS, type AdPlacementValue, adContent, clickThroughRate } from "../../lib/schemas/ad.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import { deleteIntent, rowActions } from "../../server/admin/row-actions.server.ts";
import { deleteAd, getAd, listAdsForAdmin, parseAdSort } from "../../server/site/ads.server.ts";
import type { Route } from "./+types/ads";

const PAGE_SIZE = 20;

function parsePlacement(value: string | null): AdPlacementValue | null {
  return (AD_PLACEMENTS as readonly string[]).includes(value ?? "") ? (value as AdPlacementValue) : null;
}

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const placement = parsePlacement(url.searchParams.get("placement"));
  const sort = parseAdSort(url.searchParams.get("sort"));
  const list = await listAdsForAdmin(app.db, { q, placement, sort, locale, page, pageSize: PAGE_SIZE });
  const confirming = await pendingDelete(url, (id) => getAd(app.db, id));
  return { list, q, placement, sort, confirming, locale };
}

export const action = rowActions({
  type: "ad",
  listPath: "/admin/ads",
  load: getAd,
  title: (ad) => ad.titleEn || ad.titleZh,
  intents: { delete: deleteIntent(deleteAd) },
});

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminLinks:ads.title", [NOINDEX]);
}

const CONTROL = "rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900";

export default function AdsAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const { t: ta } = useTranslation("admin");
  const m = useMessage();
  const { list, q, placement, sort, confirming, locale } = loaderData;
  const { back, withParams } = useListUrls("/admin/ads");
  const button = ADMIN_BUTTON;
  return (
    <section aria-labelledby="ads-admin-title" className="space-y-6">
      <AdminListHeader
        id="ads-admin-title"
        title={t("ads.title")}
        create={{ to: "/admin/ads/new", label: t("ads.new") }}
      />
      <p className="text-zinc-700 dark:text-zinc-300">{t("ads.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete
          text={t("ads.deleteConfirm", { title: adContent(confirming, locale).title })}
          id={confirming.id}
          back={back}
        />
      )}

      <Form method="get" role="search" className="flex flex-wrap items-end gap-3">
        <div className="space-y-1">
          <label htmlFor="ads-placement" className="block text-sm font-medium">
            {t("ads.filterPlacement")}
          </label>
          <select id="ads-placement" name="placement" defaultValue={placement ?? ""} className={CONTROL}>
            <option value="">{t("ads.allPlacements")}</option>
            {AD_PLACEMENTS.map((p) => (
              <option key={p} value={p}>
                {t(`placements.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="ads-sort" className="block text-sm font-medium">
            {t("ads.sort")}
          </label>
          <select id="ads-sort" name="sort" defaultValue={sort} className={CONTROL}>
            {AD_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`ads.sorts.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="ads-q" className="block text-sm font-medium">
            {t("ads.search")}
          </label>
          <input id="ads-q" type="search" name="q" defaultValue={q} maxLength={100} className={CONTROL} />
        </div>
        <button type="submit" className={`${button} py-2`}>
          {ta("list.search")}
        </button>
      </Form>

      <AdminTable
        columns={[
          t("ads.titleCol"),
          t("ads.placement"),
          t("ads.status"),
          t("ads.window"),
          { label: t("ads.weight"), numeric: true },
          { label: t("ads.impressions"), numeric: true },
          { label: t("ads.clicks"), numeric: true },
          { label: t("ads.ctr"), numeric: true },
          t("ads.actions"),
        ]}
        rowCount={list.items.length}
        pagination={{ page: list.page, pageCount: list.pageCount, withParams }}
        empty={q || placement ? t("ads.noMatch") : t("ads.empty")}
      >
        {list.items.map((ad) => {
          const ctr = clickThroughRate(ad.impressions, ad.clicks);
          // The title in the admin's language, else the other one.
          const title = adContent(ad, locale).title;
          return (
            <tr key={ad.id} data-ad-row={ad.id} className="border-b border-zinc-100 align-middle dark:border-zinc-900">
              <td className="py-2 pr-3">
                {title}
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">{t(`kinds.${ad.kind}`)}</span>
              </td>
              <td className="py-2 pr-3">{t(`placements.${ad.placement}`)}</td>
              <td className="py-2 pr-3">{ad.enabled ? t("ads.enabled") : t("ads.disabled")}</td>
              <td className="py-2 pr-3">
                <ShowingWindow item={ad} locale={locale} />
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{ad.weight}</td>
              <td className="py-2 pr-3 text-right tabular-nums" data-col="impressions">
                {ad.impressions}
              </td>
              <td className="py-2 pr-3 text-right tabular-nums" data-col="clicks">
                {ad.clicks}
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{ctr === null ? "—" : `${ctr}%`}</td>
              <ActionsCell>
                <EditDeleteLinks
                  name={title}
                  editTo={`/admin/ads/${ad.id}`}
                  deleteTo={withParams({ confirmDelete: ad.id })}
                />
              </ActionsCell>
            </tr>
          );
        })}
      </AdminTable>
    </section>
  );
}
