import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useNavigation } from "react-router";
import {
  ADMIN_BUTTON,
  AdminPagination,
  EmailText,
  TableScroll,
  tableClass,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { useLiveRefresh } from "../../components/admin/newsletter-parts.tsx";
import { ImportJobs } from "../../components/admin/subscriber-import-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { LocalTime, useDateTimeFormatter } from "../../components/ui/local-time.tsx";
import {
  IMPORT_DEFAULT_LANGUAGES,
  IMPORT_MAX_ROWS,
  type ImportDefaultLanguages,
  isImportDefaultLanguages,
  isSubscriberFilter,
  isSubscriberSort,
  SUBSCRIBER_FILTERS,
  SUBSCRIBER_SORTS,
} from "../../lib/admin-users.ts";
import { formatBytes } from "../../lib/media.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { importInFlight } from "../../lib/subscriber-import.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { readSingleFile } from "../../server/media/multipart.server.ts";
import { listSubscribersForAdmin } from "../../server/newsletter/admin-subscribers.server.ts";
import { readSubscriberCsv } from "../../server/newsletter/subscriber-csv.server.ts";
import { queueSubscriberImport, recentImports } from "../../server/newsletter/subscriber-import.server.ts";
import type { Route } from "./+types/subscribers";

// The import posts a CSV file: the upload limit applies, not the form limit. The subscriber
// list is only ever seen by admins, so an import empties no cached page.
export const handle = routePolicy({ writes: "none", body: "upload" });

const PAGE_SIZE = 50;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const { db } = app;
  const statusParam = url.searchParams.get("status") ?? "";
  const status = isSubscriberFilter(statusParam) ? statusParam : "";
  const sortParam = url.searchParams.get("sort") ?? "";
  const sort = isSubscriberSort(sortParam) ? sortParam : "newest";
  const list = await listSubscribersForAdmin(db, { q, status, sort, page, pageSize: PAGE_SIZE });
  const imports = await recentImports(db);
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
    maxBytes: app.env.uploadMaxBytes,
    imports,
    importing: imports.some(importInFlight),
  };
}

/** Why an import was refused as a whole; nothing was written. */
type ImportErrorCode =
  | "noFile"
  | "tooLarge"
  | "badForm"
  | "notText"
  | "empty"
  | "noEmailColumn"
  | "unterminatedQuote"
  | "tooManyRows";

type ImportAnswer = { ok: false; error: { code: ImportErrorCode; line?: number; rows?: number; max?: number } };

const refuse = (code: ImportErrorCode, status = 400, extra: { line?: number; rows?: number; max?: number } = {}) =>
  data<ImportAnswer>({ ok: false, error: { code, ...extra } }, { status });

/**
 * Queues a CSV of subscribers for import (multipart: `file`, `languages`). A file that is not
 * a subscriber CSV is refused with 400 and a reason, and nothing is stored; otherwise its
 * usable rows are stored as an import, the worker is poked, and the admin is sent back to
 * the page, where the import's progress and then its report show
 * (docs/decisions/011-subscriber-import.md).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db, env, subscriberImports } = getApp(context);
  const upload = await readSingleFile(request, env.uploadMaxBytes);
  if (!upload.ok) {
    if (upload.reason === "too-large") return refuse("tooLarge", 413);
    return refuse(upload.reason === "no-file" ? "noFile" : "badForm");
  }
  const languages = upload.fields.languages ?? "";
  if (upload.fields.intent !== "import" || !isImportDefaultLanguages(languages)) return refuse("badForm");
  const file = readSubscriberCsv(upload.data, languages);
  if (!file.ok) {
    const { code, ...extra } = file.error;
    return refuse(code, 400, extra);
  }
  await queueSubscriberImport(db, admin, { fileName: upload.fileName, defaultLanguages: languages, read: file });
  subscriberImports.poke();
  return redirect("/admin/subscribers#imports");
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
  const { list, q, status, sort, exportHref, locale, maxBytes, imports, importing } = loaderData;
  useLiveRefresh(importing, loaderData);
  const { withParams } = useListUrls("/admin/subscribers");
  const format = useDateTimeFormatter(locale);
  const when = (iso: string | null) => (iso ? format(iso) : "—");
  const cell = (iso: string | null) => (iso ? <LocalTime iso={iso} locale={locale} /> : "—");
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

      {/* A new import (this admin's upload) starts a fresh, closed form: the same file is not sent twice by accident. */}
      <ImportPanel key={imports[0]?.id ?? "none"} maxBytes={maxBytes} locale={locale} />
      <ImportJobs jobs={imports} locale={locale} />

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
        <TableScroll>
          <table className={tableClass("min-w-[48rem]")}>
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
                  <td className="py-2 pr-3">
                    <EmailText email={s.email} />
                  </td>
                  <td className="py-2 pr-3">{t(`subscribers.status.${s.status}`)}</td>
                  <td className="py-2 pr-3">{t(`subscribers.languages.${languagesKey(s)}`)}</td>
                  <td className="py-2 pr-3">
                    <Delivery subscriber={s} when={when} />
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">{cell(s.createdAt)}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{cell(s.confirmedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
    </section>
  );
}

/** The CSV upload: a file, the language for rows naming none, and why the last upload was refused. */
function ImportPanel({ maxBytes, locale }: { maxBytes: number; locale: Route.ComponentProps["loaderData"]["locale"] }) {
  const { t } = useTranslation("adminUsers");
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "import";
  const input = "rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900";
  const defaultLanguages: ImportDefaultLanguages = locale === "en" ? "bothEn" : "bothZh";
  return (
    <div className="space-y-3">
      <details open={answer !== undefined} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <summary className="cursor-pointer font-medium">{t("subscribers.import.open")}</summary>
        <p className="mt-3 max-w-3xl text-sm text-zinc-700 dark:text-zinc-300">{t("subscribers.import.intro")}</p>
        <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="import" />
          <div>
            <label htmlFor="import-file" className="block text-sm font-medium">
              {t("subscribers.import.file")}
            </label>
            <input
              id="import-file"
              name="file"
              type="file"
              required
              accept=".csv,text/csv"
              aria-describedby="import-file-hint"
              className="mt-1 block text-sm"
              onChange={(event) => {
                // A file over the limit would be cut off by the server: say so before sending it.
                const file = event.currentTarget.files?.[0];
                event.currentTarget.setCustomValidity(
                  file && file.size > maxBytes
                    ? t("subscribers.import.errors.tooLarge", { size: formatBytes(maxBytes) })
                    : "",
                );
              }}
            />
            <p id="import-file-hint" className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
              {t("subscribers.import.fileHint", {
                rows: IMPORT_MAX_ROWS.toLocaleString(locale),
                size: formatBytes(maxBytes),
              })}
            </p>
          </div>
          <div>
            <label htmlFor="import-languages" className="block text-sm font-medium">
              {t("subscribers.import.language")}
            </label>
            <select id="import-languages" name="languages" defaultValue={defaultLanguages} className={input}>
              {IMPORT_DEFAULT_LANGUAGES.map((key) => (
                <option key={key} value={key}>
                  {t(`subscribers.languages.${key}`)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            disabled={busy}
            className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
          >
            {busy ? t("subscribers.import.busy") : t("subscribers.import.submit")}
          </button>
        </Form>
      </details>
      {answer && (
        <FormAlert>
          {t(`subscribers.import.errors.${answer.error.code}`, {
            size: formatBytes(maxBytes),
            line: answer.error.line ?? 0,
            rows: answer.error.rows ?? 0,
            max: answer.error.max ?? IMPORT_MAX_ROWS,
          })}
        </FormAlert>
      )}
    </div>
  );
}
