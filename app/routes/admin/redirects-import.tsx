import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { FilePicker } from "../../components/admin/file-picker.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { shortenProblemValue } from "../../lib/csv.ts";
import { formatBytes } from "../../lib/media.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { REDIRECT_IMPORT_MAX_ROWS } from "../../lib/redirects.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readSingleFile } from "../../server/media/multipart.server.ts";
import {
  REDIRECT_IMPORT_MAX_PROBLEMS,
  type RedirectProblem,
  readRedirectCsv,
} from "../../server/redirects/csv.server.ts";
import { importRedirects, REDIRECTS_CHANGED } from "../../server/redirects/redirects.server.ts";
import type { Route } from "./+types/redirects-import";

// The import posts a CSV file: the upload limit applies, not the form limit. It changes
// no rendered page; the action names the redirects tag so every instance reloads its map.
export const handle = routePolicy({ writes: "content", body: "upload" });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  return { maxBytes: getApp(context).env.uploadMaxBytes, locale: getRequest(context).locale };
}

type ImportErrorCode =
  | "noFile"
  | "tooLarge"
  | "badForm"
  | "notText"
  | "empty"
  | "noColumns"
  | "unterminatedQuote"
  | "tooManyRows";

type ImportAnswer =
  | {
      ok: true;
      report: { added: number; updated: number; unchanged: number; skipped: number; problems: RedirectProblem[] };
    }
  | { ok: false; error: { code: ImportErrorCode; line?: number; rows?: number; max?: number } };

const refuse = (code: ImportErrorCode, status = 400, extra: { line?: number; rows?: number; max?: number } = {}) =>
  data<ImportAnswer>({ ok: false, error: { code, ...extra } }, { status });

/**
 * Imports a CSV of redirects (multipart: `file`). A file that is not one is refused with 400
 * and a reason; otherwise every usable row is added or updated in one transaction, and the
 * answer is the report: rows added, updated, and skipped with their reasons.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db, env } = getApp(context);
  const upload = await readSingleFile(request, env.uploadMaxBytes);
  if (!upload.ok) {
    if (upload.reason === "too-large") return refuse("tooLarge", 413);
    return refuse(upload.reason === "no-file" ? "noFile" : "badForm");
  }
  if (upload.fields.intent !== "import") return refuse("badForm");
  const file = readRedirectCsv(upload.data);
  if (!file.ok) {
    const { code, ...extra } = file.error;
    return refuse(code, 400, extra);
  }
  const outcome = await db.transaction().execute(async (trx) => {
    const result = await importRedirects(trx, file.candidates, "import:csv");
    await audit(
      trx,
      admin,
      "redirect.import",
      { type: "redirect" },
      {
        fileName: upload.fileName.slice(0, 200),
        added: result.added,
        updated: result.updated,
        unchanged: result.unchanged,
        refused: result.refused.length,
        invalid: file.skipped,
      },
    );
    return result;
  });
  getRequest(context).changes = REDIRECTS_CHANGED;
  const problems = [
    ...file.problems,
    ...outcome.refused.map((r) => ({ line: r.line, reason: r.reason, value: shortenProblemValue(r.from) })),
  ]
    .sort((a, b) => a.line - b.line)
    .slice(0, REDIRECT_IMPORT_MAX_PROBLEMS);
  return data<ImportAnswer>({
    ok: true,
    report: {
      added: outcome.added,
      updated: outcome.updated,
      unchanged: outcome.unchanged,
      skipped: file.skipped + outcome.refused.length,
      problems,
    },
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminLinks:redirects.import.title", [NOINDEX]);
}

export default function RedirectImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const { maxBytes, locale } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const answer = actionData;
  return (
    <section aria-labelledby="redirect-import-title" className="max-w-3xl space-y-6">
      <h1 id="redirect-import-title" className="text-3xl font-bold tracking-tight">
        {t("redirects.import.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("redirects.import.intro")}</p>
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="import" />
        <div className="w-full max-w-xl">
          <FilePicker
            id="redirect-import-file"
            label={t("redirects.import.file")}
            accept=".csv,text/csv"
            required
            maxBytes={maxBytes}
            hint={t("redirects.import.fileHint", {
              rows: REDIRECT_IMPORT_MAX_ROWS.toLocaleString(locale),
              size: formatBytes(maxBytes),
            })}
          />
        </div>
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {busy ? t("redirects.import.busy") : t("redirects.import.submit")}
        </button>
      </Form>
      {answer && !answer.ok && (
        <FormAlert>
          {t(`redirects.import.errors.${answer.error.code}`, {
            size: formatBytes(maxBytes),
            line: answer.error.line ?? 0,
            rows: answer.error.rows ?? 0,
            max: answer.error.max ?? REDIRECT_IMPORT_MAX_ROWS,
          })}
        </FormAlert>
      )}
      {answer?.ok && (
        <section
          role="status"
          aria-labelledby="redirect-report-title"
          className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
        >
          <h2 id="redirect-report-title" className="font-semibold">
            {t("redirects.import.reportTitle")}
          </h2>
          <ul className="mt-2 list-disc pl-5">
            {(["added", "updated", "unchanged", "skipped"] as const).map((key) => (
              <li key={key}>{t(`redirects.import.${key}`, { count: answer.report[key] })}</li>
            ))}
          </ul>
          {answer.report.problems.length > 0 && (
            <>
              <h3 className="mt-3 text-sm font-semibold">{t("redirects.import.problemsTitle")}</h3>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {answer.report.problems.map((p) => (
                  <li key={`${p.line}-${p.reason}`}>
                    {t(`redirects.import.problem.${p.reason}`, { line: p.line, value: p.value })}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
      <Link to="/admin/redirects" className="text-blue-700 underline dark:text-blue-400">
        {t("redirects.import.back")}
      </Link>
    </section>
  );
}
