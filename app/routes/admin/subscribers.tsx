import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ADMIN_BUTTON, AdminPagination, useListUrls } from "../../components/admin/list-parts.tsx";
import { isSubscriberFilter, isSubscriberSort, SUBSCRIBER_FILTERS, SUBSCRIBER_SORTS } from "../../lib/admin-users.ts";
import { formatDateTime } from "../../lib/format.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import { listSubscribersForAdmin } from "../../server/repos/admin-subscribers.server.ts";
import type { Route } from "./+types/subscribers";

const PAGE_SIZE = 50;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const { db } = app;
  const statusParam = url.searchParams.get("status") ?? "";
  const status = isSubscriberFilter(statusParam) ? statusParam : "";
  const sortParam = url.searchParams.get("sort") ?? "";
  const sort = isSubscriberSort(sortParam) ? sortParam : "newest";
  const list = await listSubscribersForAdmin(db, { q, status, sort, page, pageSize: PAGE_SIZE });
  const exportParams = new URLSearchParams();
  if (q) exportParams.set("q", q);
  if (status) exportParams.set("status", status);
  return {
    list,
    q,
    status,
    sort,
    exportHref: `/admin/subscribers.csv${exportParams.size ? `?${exportParams}` : ""}`,
    locale,
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminUsers:subscribers.title", [NOINDEX]);
}

type Row = Route.ComponentProps["loaderData"]["list"]["items"][number];

/** The language choice as a string key: "both" names which version comes first. */
function languagesKey(s: Pick<Row, "languages" | "locale">): "en" | "zh" | "bothEn" | "bothZh" {
  if (s.languages !== "both") return s.languages;
  return s.locale === "en" ? "bothEn" : "bothZh";
}

/** A bounced subscriber's badge with its date, else how many deliveries failed in a row, else "OK". */
function Delivery({ subscriber: s, when }: { subscriber: Row; when: (iso: string | null) => string }) {
  const { t } = useTranslation("adminUsers");
  if (s.bouncedAt) {
    return (
      <span
        title={t("subscribers.bouncedHint")}
        className="inline-block rounded bg-red-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-red-900 dark:bg-red-950 dark:text-red-200"
      >
        {t("subscribers.bouncedOn", { date: when(s.bouncedAt) })}
      </span>
    );
  }
  if (s.bounceCount > 0) return <>{t("subscribers.failures", { count: s.bounceCount })}</>;
  return <>{t("subscribers.ok")}</>;
}

export default function SubscribersAdmin({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminUsers");
  const { list, q, status, sort, exportHref, locale } = loaderData;
  const { withParams } = useListUrls("/admin/subscribers");
  const when = (iso: string | null) => (iso ? formatDateTime(iso, locale) : "—");
  const input = "rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900";

  return (
    <section aria-labelledby="subscribers-title" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="subscribers-title" className="text-3xl font-bold tracking-tight">
          {t("subscribers.title")}
        </h1>
        {/* A file download: a plain link, not client navigation. */}
        <a
          href={exportHref}
          download
          className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800"
        >
          {t("subscribers.export")}
        </a>
      </div>

      <Form method="get" role="search" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="subscribers-q" className="block text-sm font-medium">
            {t("subscribers.search")}
          </label>
          <input id="subscribers-q" type="search" name="q" defaultValue={q} maxLength={100} className={input} />
        </div>
        <div>
          <label htmlFor="subscribers-status" className="block text-sm font-medium">
            {t("subscribers.statusFilter")}
          </label>
          <select id="subscribers-status" name="status" defaultValue={status} className={input}>
            <option value="">{t("subscribers.statusAll")}</option>
            {SUBSCRIBER_FILTERS.map((s) => (
              <option key={s} value={s}>
                {t(`subscribers.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="subscribers-sort" className="block text-sm font-medium">
            {t("subscribers.sortBy")}
          </label>
          <select id="subscribers-sort" name="sort" defaultValue={sort} className={input}>
            {SUBSCRIBER_SORTS.map((key) => (
              <option key={key} value={key}>
                {t(`subscribers.sort.${key}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={ADMIN_BUTTON}>
          {t("subscribers.filter")}
        </button>
      </Form>

      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("subscribers.count", { count: list.total })}</p>

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{t("subscribers.empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                {(["email", "status", "languages", "delivery", "created", "confirmed"] as const).map((col) => (
                  <th key={col} scope="col" className="py-2 pr-3">
                    {t(`subscribers.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.items.map((s) => (
                <tr key={s.id} className="border-b border-zinc-100 dark:border-zinc-900">
                  <td className="py-2 pr-3 break-all">{s.email}</td>
                  <td className="py-2 pr-3">{t(`subscribers.status.${s.status}`)}</td>
                  <td className="py-2 pr-3">{t(`subscribers.languages.${languagesKey(s)}`)}</td>
                  <td className="py-2 pr-3">
                    <Delivery subscriber={s} when={when} />
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">{when(s.createdAt)}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{when(s.confirmedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
    </section>
  );
}
