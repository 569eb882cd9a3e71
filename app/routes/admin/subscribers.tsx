import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useNavigation } from "react-router";
import { FilePicker } from "../../components/admin/file-picker.tsx";
import { AdminPagination, useListUrls } from "../../components/admin/list-parts.tsx";
import { EmailText } from "../../components/admin/list-table.tsx";
import { useLiveRefresh } from "../../components/admin/newsletter-parts.tsx";
import { ImportJobs } from "../../components/admin/subscriber-import-parts.tsx";
import {
  BarSelect,
  CardCell,
  CardRow,
  CardTable,
  EmptyState,
  FilterBar,
  type LabelTone,
  PRIMARY_BAR_BUTTON,
  ShortTime,
  StatusLabel,
  useListTimeZone,
} from "../../components/admin/table-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
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
import { formatShortDateTime } from "../../lib/format.ts";
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

const SUBSCRIBER_COLUMNS = ["email", "status", "languages", "delivery", "created", "confirmed"] as const;

const STATUS_TONE: Record<Row["status"], LabelTone> = {
  pending: "amber",
  confirmed: "green",
  unsubscribed: "zinc",
};

export default function SubscribersAdmin({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminUsers");
  const { list, q, status, sort, exportHref, locale, maxBytes, imports, importing } = loaderData;
  useLiveRefresh(importing, loaderData);
  const { withParams } = useListUrls("/admin/subscribers");
  const zone = useListTimeZone();
  const when = (iso: string | null) => (iso ? formatShortDateTime(iso, locale, zone) : "—");
  const cell = (iso: string | null) => (iso ? <ShortTime iso={iso} locale={locale} zone={zone} /> : "—");
  const { t: tAdmin } = useTranslation("admin");
  const columnLabel = (col: (typeof SUBSCRIBER_COLUMNS)[number]) =>
    col === "created" || col === "confirmed"
      ? tAdmin("table.withZone", { label: t(`subscribers.col.${col}`), zone })
      : t(`subscribers.col.${col}`);

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

      <FilterBar
        label={t("subscribers.filters")}
        testId="subscriber-filters"
        search={{ id: "subscribers-q", label: t("subscribers.search"), q }}
        sort={{
          id: "subscribers-sort",
          label: t("subscribers.sortBy"),
          value: sort,
          options: SUBSCRIBER_SORTS.map((key) => ({ value: key, label: t(`subscribers.sort.${key}`) })),
        }}
        nowrap="lg"
        button={t("subscribers.filter")}
      >
        <BarSelect
          id="subscribers-status"
          name="status"
          label={t("subscribers.statusFilter")}
          any={t("subscribers.statusAny")}
          value={status}
          options={SUBSCRIBER_FILTERS.map((s) => ({ value: s, label: t(`subscribers.status.${s}`) }))}
          inline
        />
      </FilterBar>

      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("subscribers.count", { count: list.total })}</p>

      {list.items.length === 0 ? (
        q || status ? (
          <EmptyState
            text={t("subscribers.empty")}
            action={{ to: "/admin/subscribers", label: t("subscribers.clearFilters") }}
          />
        ) : (
          <EmptyState
            text={t("subscribers.emptyFirst")}
            action={{ to: "/subscribe", label: t("subscribers.emptyAction") }}
          />
        )
      ) : (
        <CardTable
          testId="subscribers-table"
          caption={t("subscribers.caption")}
          columns={SUBSCRIBER_COLUMNS.map((col) => ({ label: columnLabel(col) }))}
        >
          {list.items.map((s) => (
            <CardRow key={s.id}>
              <CardCell label={columnLabel("email")} rowHeader>
                <EmailText email={s.email} />
              </CardCell>
              <CardCell label={columnLabel("status")}>
                <StatusLabel tone={STATUS_TONE[s.status]}>{t(`subscribers.status.${s.status}`)}</StatusLabel>
              </CardCell>
              <CardCell label={columnLabel("languages")}>{t(`subscribers.languages.${languagesKey(s)}`)}</CardCell>
              <CardCell label={columnLabel("delivery")}>
                <Delivery subscriber={s} when={when} />
              </CardCell>
              <CardCell label={columnLabel("created")}>{cell(s.createdAt)}</CardCell>
              <CardCell label={columnLabel("confirmed")}>{cell(s.confirmedAt)}</CardCell>
            </CardRow>
          ))}
        </CardTable>
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
  const defaultLanguages: ImportDefaultLanguages = locale === "en" ? "bothEn" : "bothZh";
  return (
    <div className="space-y-3">
      <details open={answer !== undefined} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <summary className="cursor-pointer font-medium">{t("subscribers.import.open")}</summary>
        <p className="mt-3 max-w-3xl text-sm text-zinc-700 dark:text-zinc-300">{t("subscribers.import.intro")}</p>
        <Form method="post" encType="multipart/form-data" className="mt-3 max-w-xl space-y-4">
          <input type="hidden" name="intent" value="import" />
          <FilePicker
            id="import-file"
            label={t("subscribers.import.file")}
            accept=".csv,text/csv"
            required
            maxBytes={maxBytes}
            tooLarge={t("subscribers.import.errors.tooLarge", { size: formatBytes(maxBytes) })}
            hint={t("subscribers.import.fileHint", {
              rows: IMPORT_MAX_ROWS.toLocaleString(locale),
              size: formatBytes(maxBytes),
            })}
          />
          <div className="flex flex-wrap items-end gap-3">
            <BarSelect
              id="import-languages"
              name="languages"
              label={t("subscribers.import.language")}
              value={defaultLanguages}
              options={IMPORT_DEFAULT_LANGUAGES.map((key) => ({
                value: key,
                label: t(`subscribers.languages.${key}`),
              }))}
            />
            <button type="submit" disabled={busy} className={PRIMARY_BAR_BUTTON}>
              {busy ? t("subscribers.import.busy") : t("subscribers.import.submit")}
            </button>
          </div>
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
