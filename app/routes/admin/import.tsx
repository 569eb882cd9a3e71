import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { DocsLink } from "../../components/admin/docs-link.tsx";
import { FilePicker } from "../../components/admin/file-picker.tsx";
import { useLiveRefresh } from "../../components/admin/newsletter-parts.tsx";
import { BAR_CONTROL } from "../../components/admin/table-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { formatBytes } from "../../lib/media.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { IMPORT_LANGS } from "../../lib/post-import.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { IMPORT_LINES_SHOWN, importPageAction } from "../../server/import/admin-page.server.ts";
import type { ImportCounts, ImportReportLine } from "../../server/import/core.server.ts";
import { recentPostImports } from "../../server/import/job/report.server.ts";
import { uploadZipBudget } from "../../server/import/zip.server.ts";
import type { Route } from "./+types/import";

// The admin Import page (docs/decisions/020-importers.md): upload a zip of a Markdown blog or
// a Ghost JSON export or a WordPress WXR export (told apart by content), read its dry-run report, confirm, and watch the
// background job. The upload limit applies. The writes are the import feature's
// (app/server/import/admin-page.server.ts).
export const handle = routePolicy({ writes: "none", body: "upload" });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const app = getApp(context);
  const imports = (await recentPostImports(app.db)).map((j) => ({
    ...j,
    report: j.report.slice(0, IMPORT_LINES_SHOWN),
  }));
  return {
    imports,
    maxBytes: app.env.uploadMaxBytes,
    unpackMaxBytes: uploadZipBudget(app.env.uploadMaxBytes),
    running: imports.some((j) => j.status === "queued" || j.status === "running"),
  };
}

/** `upload` (answers the dry run of a staged import), `confirm` or `cancel`: import/admin-page.server.ts. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const result = await importPageAction(getApp(context), admin, request);
  return "redirect" in result ? redirect(result.redirect) : data(result.answer, { status: result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminLinks:import.title", [NOINDEX]);
}

function Counts({ counts }: { counts: ImportCounts }) {
  const { t } = useTranslation("adminLinks");
  const items = [
    ["imported", counts.imported],
    ["updated", counts.updated],
    ["pages", counts.pages],
    ["skipped", counts.skipped],
    ["failed", counts.failed],
    ["imagesStored", counts.imagesStored],
    ["imagesMissing", counts.imagesMissing],
    ["redirectsAdded", counts.redirectsAdded],
    ["commentsAdded", counts.commentsAdded],
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
      {items.map(([key, n]) => (
        <div key={key} className="flex justify-between gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">{t(`import.counts.${key}`)}</dt>
          <dd className="font-medium tabular-nums" data-count={key}>
            {n}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const KNOWN_REASONS = [
  "unchanged",
  "editedSinceImport",
  "inTrash",
  "bodyTooLong",
  "bodyTooDeep",
  "fileTooLarge",
  "frontMatterInvalid",
  "frontMatterUnclosed",
  "frontMatterTooLarge",
  "frontMatterAliases",
  "pairingAmbiguous",
  "notFound",
  "outside",
  "tooLarge",
  "redirectExists",
  "redirectInvalid",
  "redirectReserved",
  "redirectLive",
  "zipEntryUnsafe",
  "ghostKeptAsHtml",
  "ghostFlattened",
  "ghostNoHtml",
  "ghostStatus",
  "ghostMembersOnly",
  "ghostAuthor",
  "ghostNoId",
  "ghostDuplicateId",
  "imageRemoteKept",
  "imageRemoteFetch",
  "remoteUrl",
  "remotePrivate",
  "remoteDns",
  "remoteTimeout",
  "remoteTooLarge",
  "remoteType",
  "remoteStatus",
  "remoteRedirects",
  "remoteError",
  "ghostCoAuthors",
  "ghostAuthorUnknown",
  "ghostLexicalUnknown",
  "ghostLexicalDropped",
  "ghostLexicalInvalid",
  "authorCreated",
  "authorMatched",
  "commentCut",
  "commentTooDeep",
  "wpShortcodeKept",
  "wpKeptAsHtml",
  "wpGalleryEmpty",
  "wpCommentsSpam",
  "wpPingbacks",
  "wpAuthor",
  "wpPrivate",
  "wpPassword",
  "wpStatus",
  "wpThumbnailMissing",
  "wpTrash",
  "wpAutoDraft",
  "wpPostType",
  "wpNoId",
  "wpDuplicateId",
  "pageSlugReserved",
  "pageSlugTaken",
  "pageSlugRedirected",
  "pageBodyTooLong",
  "pageScheduledAsDraft",
  "pageCoverDropped",
  "pageCommentsDropped",
] as const;
type KnownReason = (typeof KNOWN_REASONS)[number];
const isKnownReason = (r: string): r is KnownReason => (KNOWN_REASONS as readonly string[]).includes(r);

function Report({ lines }: { lines: ImportReportLine[] }) {
  const { t } = useTranslation("adminLinks");
  if (lines.length === 0) return <p className="text-sm">{t("import.reportEmpty")}</p>;
  return (
    <ul className="space-y-1 text-sm">
      {lines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: report lines have no id and never reorder
        <li key={i}>
          <span className="font-medium">{t(`import.outcome.${l.outcome}`)}</span> <code>{l.item}</code>
          {l.reason ? `: ${isKnownReason(l.reason) ? t(`import.reason.${l.reason}`) : l.reason}` : ""}
          {l.detail ? <span className="text-zinc-600 dark:text-zinc-400"> ({l.detail})</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** Start or drop a staged import. */
function StagedActions({ id, busy }: { id: string; busy: boolean }) {
  const { t } = useTranslation("adminLinks");
  return (
    <div className="flex gap-3">
      <Form method="post">
        <input type="hidden" name="id" value={id} />
        <button type="submit" name="intent" value="confirm" className={BUTTON} disabled={busy}>
          {t("import.confirm")}
        </button>
      </Form>
      <Form method="post">
        <input type="hidden" name="id" value={id} />
        <button
          type="submit"
          name="intent"
          value="cancel"
          disabled={busy}
          className="rounded-md border border-zinc-300 px-4 py-2 font-medium dark:border-zinc-700"
        >
          {t("import.cancel")}
        </button>
      </Form>
    </div>
  );
}

/** Links to an import's dry run and, once it has ended, its final report, each as JSON and as text. */
function Downloads({ id, label, plan, final }: { id: string; label: string; plan: boolean; final: boolean }) {
  const { t } = useTranslation("adminLinks");
  const groups: { which: "plan" | "final"; file: string }[] = [];
  if (plan) groups.push({ which: "plan", file: "dry-run" });
  if (final) groups.push({ which: "final", file: "report" });
  if (groups.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
      {groups.map((g) => (
        <li key={g.which}>
          {t(`import.download.${g.which}`)}:{" "}
          <a
            href={`/admin/import/${encodeURIComponent(id)}/${g.file}.json`}
            download
            aria-label={t(`import.download.${g.which}JsonLabel`, { file: label })}
            className="text-blue-700 underline dark:text-blue-400"
          >
            {t("import.download.json")}
          </a>{" "}
          ·{" "}
          <a
            href={`/admin/import/${encodeURIComponent(id)}/${g.file}.txt`}
            download
            aria-label={t(`import.download.${g.which}TxtLabel`, { file: label })}
            className="text-blue-700 underline dark:text-blue-400"
          >
            {t("import.download.txt")}
          </a>
        </li>
      ))}
    </ul>
  );
}

const BUTTON = "rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60";

export default function ImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const { t: tTools } = useTranslation("adminTools");
  const { imports, maxBytes, unpackMaxBytes, running } = loaderData;
  useLiveRefresh(running, loaderData);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const staged = actionData?.ok ? actionData : null;
  return (
    <section aria-labelledby="import-title" className="max-w-4xl space-y-6">
      <h1 id="import-title" className="text-3xl font-bold tracking-tight">
        {t("import.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("import.intro")}</p>
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="upload" />
        <div className="w-full max-w-xl">
          <FilePicker
            id="import-file"
            label={t("import.file")}
            accept=".zip,.json,.xml,application/zip,application/json,application/xml,text/xml"
            required
            maxBytes={maxBytes}
            hint={t("import.fileHint", { size: formatBytes(maxBytes) })}
          />
          <p className="mt-1 text-sm">
            <DocsLink doc="operations" text={tTools("docs.importImages")} />
          </p>
        </div>
        <div>
          <label htmlFor="import-lang" className="block text-sm font-medium">
            {t("import.lang")}
          </label>
          <select id="import-lang" name="lang" defaultValue="auto" className={`mt-1 ${BAR_CONTROL}`}>
            {IMPORT_LANGS.map((l) => (
              <option key={l} value={l}>
                {t(`import.langs.${l}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="w-full max-w-xs">
          <label htmlFor="import-pages-folder" className="block text-sm font-medium">
            {t("import.pagesFolder")}
          </label>
          <input
            id="import-pages-folder"
            name="pagesFolder"
            maxLength={200}
            placeholder="pages"
            aria-describedby="import-pages-folder-hint"
            className={`mt-1 w-full ${BAR_CONTROL}`}
          />
        </div>
        <p id="import-pages-folder-hint" className="basis-full text-sm text-zinc-600 dark:text-zinc-400">
          {t("import.pagesFolderHint")}
        </p>
        <div className="basis-full">
          <label className="flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" name="fetchRemote" aria-describedby="import-remote-hint" />
            {t("import.fetchRemote")}
          </label>
          <p id="import-remote-hint" className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {t("import.fetchRemoteHint")}
          </p>
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          {busy ? t("import.reading") : t("import.check")}
        </button>
      </Form>
      {actionData && !actionData.ok ? (
        <FormAlert>
          {t(`import.errors.${actionData.error}`, {
            size: formatBytes(maxBytes),
            unpacked: formatBytes(unpackMaxBytes),
          })}
        </FormAlert>
      ) : null}
      {staged ? (
        <section
          aria-labelledby="dry-run-title"
          className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
        >
          <h2 id="dry-run-title" className="text-xl font-semibold">
            {t("import.dryRun")}
          </h2>
          <p className="text-sm">{t("import.dryRunIntro", { count: staged.counts.total })}</p>
          {staged.counts.pages > 0 ? (
            <p className="text-sm">{t("import.dryRunPages", { count: staged.counts.pages })}</p>
          ) : null}
          <Counts counts={staged.counts} />
          <Report lines={staged.report} />
          <Downloads id={staged.id} label={staged.label} plan final={false} />
          <StagedActions id={staged.id} busy={busy} />
        </section>
      ) : null}
      <section id="imports" aria-labelledby="imports-title" className="space-y-4">
        <h2 id="imports-title" className="text-xl font-semibold">
          {t("import.recent")}
        </h2>
        {imports.length === 0 ? <p className="text-sm">{t("import.none")}</p> : null}
        {imports.map((job) => (
          <article key={job.id} className="space-y-2 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
            <h3 className="font-medium">
              <code>{job.label}</code> · <span data-status={job.status}>{t(`import.status.${job.status}`)}</span>
            </h3>
            <progress
              max={Math.max(job.total, 1)}
              value={job.processed}
              className="w-full"
              aria-label={t("import.progress")}
            >
              {job.processed}/{job.total}
            </progress>
            <p className="text-sm">{t("import.processed", { done: job.processed, total: job.total })}</p>
            <Counts counts={job} />
            {job.status === "staged" && job.id !== staged?.id ? <StagedActions id={job.id} busy={busy} /> : null}
            {job.status === "done" || job.status === "failed" ? <Report lines={job.report} /> : null}
            <Downloads
              id={job.id}
              label={job.label}
              plan={job.hasPlan}
              final={job.status === "done" || job.status === "failed"}
            />
          </article>
        ))}
      </section>
    </section>
  );
}
