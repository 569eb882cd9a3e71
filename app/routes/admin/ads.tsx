import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import {
  ADMIN_BUTTON,
  AdminPagination,
  ConfirmDelete,
  listQuery,
  safeBack,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { AD_PLACEMENTS, AD_SORTS, type AdPlacementValue, clickThroughRate } from "../../lib/schemas/ad.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/flash.server.ts";
import { deleteAd, getAd, listAdsForAdmin, parseAdSort } from "../../server/repos/ads.server.ts";
import { audit } from "../../server/repos/audit.server.ts";
import type { Route } from "./+types/ads";

const PAGE_SIZE = 20;

function parsePlacement(value: string | null): AdPlacementValue | null {
  return (AD_PLACEMENTS as readonly string[]).includes(value ?? "") ? (value as AdPlacementValue) : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const { q, page, url } = listQuery(request);
  const placement = parsePlacement(url.searchParams.get("placement"));
  const sort = parseAdSort(url.searchParams.get("sort"));
  const list = await listAdsForAdmin(db, { q, placement, sort, page, pageSize: PAGE_SIZE });
  const confirmId = url.searchParams.get("confirmDelete");
  const confirming = confirmId ? ((await getAd(db, confirmId)) ?? null) : null;
  return { list, q, placement, sort, confirming, locale: getRequest(context).locale };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const ad = id ? await getAd(app.db, id) : undefined;
  if (!ad) return data({ error: "admin:errors.notFound" }, { status: 404 });
  const back = safeBack(form.get("back"), "/admin/ads");
  if (intent === "delete") {
    await app.db.transaction().execute(async (trx) => {
      await deleteAd(trx, id);
      await audit(trx, admin, "ad.delete", { type: "ad", id }, { title: ad.title });
    });
    return redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", "flash.deleted") });
  }
  return data({ error: "admin:errors.notFound" }, { status: 400 });
}

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
  const windowText = (ad: { startsAt: string | null; endsAt: string | null }) => {
    const from = ad.startsAt ? formatDateTime(ad.startsAt, locale) : null;
    const until = ad.endsAt ? formatDateTime(ad.endsAt, locale) : null;
    if (from && until) return t("ads.between", { from, until });
    if (from) return t("ads.from", { date: from });
    if (until) return t("ads.until", { date: until });
    return t("ads.always");
  };

  return (
    <section aria-labelledby="ads-admin-title" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="ads-admin-title" className="text-3xl font-bold tracking-tight">
          {t("ads.title")}
        </h1>
        <Link to="/admin/ads/new" className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800">
          {t("ads.new")}
        </Link>
      </div>
      <p className="text-zinc-700 dark:text-zinc-300">{t("ads.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("ads.deleteConfirm", { title: confirming.title })} id={confirming.id} back={back} />
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

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{q || placement ? t("ads.noMatch") : t("ads.empty")}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-2 pr-3">
                {t("ads.titleCol")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("ads.placement")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("ads.status")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("ads.window")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("ads.weight")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("ads.impressions")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("ads.clicks")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("ads.ctr")}
              </th>
              <th scope="col" className="py-2">
                {t("ads.actions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((ad) => {
              const ctr = clickThroughRate(ad.impressions, ad.clicks);
              return (
                <tr
                  key={ad.id}
                  data-ad-row={ad.id}
                  className="border-b border-zinc-100 align-middle dark:border-zinc-900"
                >
                  <td className="py-2 pr-3">
                    {ad.title}
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">{t(`kinds.${ad.kind}`)}</span>
                  </td>
                  <td className="py-2 pr-3">{t(`placements.${ad.placement}`)}</td>
                  <td className="py-2 pr-3">{ad.enabled ? t("ads.enabled") : t("ads.disabled")}</td>
                  <td className="py-2 pr-3">{windowText(ad)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{ad.weight}</td>
                  <td className="py-2 pr-3 text-right tabular-nums" data-col="impressions">
                    {ad.impressions}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums" data-col="clicks">
                    {ad.clicks}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{ctr === null ? "—" : `${ctr}%`}</td>
                  <td className="py-2">
                    <div className="flex flex-wrap gap-2">
                      <Link
                        to={`/admin/ads/${ad.id}`}
                        className={button}
                        aria-label={t("ads.editLink", { title: ad.title })}
                      >
                        {t("ads.editAction")}
                      </Link>
                      <Link
                        to={withParams({ confirmDelete: ad.id })}
                        className={`${button} text-red-700 dark:text-red-400`}
                        aria-label={t("ads.deleteLink", { title: ad.title })}
                      >
                        {ta("list.delete")}
                      </Link>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
    </section>
  );
}
