import { useTranslation } from "react-i18next";
import type { Locale } from "../../lib/i18n/locale.ts";
import { type ImportJobView, importInFlight, importProgress } from "../../lib/subscriber-import.ts";
import { useDateTimeFormatter } from "../ui/local-time.tsx";

/** The subscribers page's latest imports: progress while one runs, the report once it ends. */
export function ImportJobs({ jobs, locale }: { jobs: ImportJobView[]; locale: Locale }) {
  const { t } = useTranslation("adminUsers");
  if (jobs.length === 0) return null;
  const live = jobs.some(importInFlight);
  return (
    <section id="imports" aria-labelledby="imports-title" className="space-y-3">
      <h2 id="imports-title" className="text-xl font-semibold">
        {t("subscribers.import.importsTitle")}
      </h2>
      {live && (
        <noscript>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("subscribers.import.refreshHint")}</p>
        </noscript>
      )}
      <ul className="space-y-3">
        {jobs.map((job) => (
          <li key={job.id}>
            <ImportJobCard job={job} locale={locale} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ImportJobCard({ job, locale }: { job: ImportJobView; locale: Locale }) {
  const { t } = useTranslation("adminUsers");
  const formatDateTime = useDateTimeFormatter(locale);
  const { done, total, percent } = importProgress(job);
  const finished = job.status === "done";
  const tone = finished
    ? "border-green-300 bg-green-50 dark:border-green-800 dark:bg-green-950"
    : job.status === "failed"
      ? "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950"
      : "border-zinc-200 dark:border-zinc-800";
  const titleId = `import-${job.id}-title`;
  return (
    <article aria-labelledby={titleId} className={`space-y-2 rounded-lg border p-4 ${tone}`}>
      <h3 id={titleId} className="font-semibold break-all">
        {t("subscribers.import.jobTitle", {
          file: job.fileName,
          date: formatDateTime(job.createdAt),
          email: job.actorEmail,
        })}
      </h3>
      {importInFlight(job) && (
        <div className="flex max-w-xl items-center gap-2">
          <div
            role="progressbar"
            aria-label={t("subscribers.import.progressLabel", { file: job.fileName })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={t("subscribers.import.progressText", { done, total, percent })}
            className="h-2.5 flex-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
          >
            <div className="h-full rounded-full bg-blue-700 dark:bg-blue-400" style={{ width: `${percent}%` }} />
          </div>
          <span className="text-xs whitespace-nowrap tabular-nums">
            {t("subscribers.import.progressText", { done, total, percent })}
          </span>
        </div>
      )}
      {/* The state and, once it ends, the report: announced when they change, not at every step of the bar. */}
      <div role="status" className="space-y-2 text-sm">
        <p className="font-medium">
          {finished ? t("subscribers.import.reportTitle") : t(`subscribers.import.jobStatus.${job.status}`)}
        </p>
        {job.status === "failed" && <p>{t("subscribers.import.failed", { done, total })}</p>}
        {(finished || job.status === "failed") && <ImportReport job={job} />}
      </div>
    </article>
  );
}

function ImportReport({ job }: { job: ImportJobView }) {
  const { t } = useTranslation("adminUsers");
  const skipped = (["duplicates", "existing", "notSubscribed", "invalid"] as const).filter((key) => job[key] > 0);
  return (
    <>
      <ul className="list-disc space-y-1 pl-5">
        <li>{t("subscribers.import.imported", { count: job.imported })}</li>
        {skipped.map((key) => (
          <li key={key}>{t(`subscribers.import.${key}`, { count: job[key] })}</li>
        ))}
      </ul>
      {job.problems.length > 0 && (
        <>
          <h4 className="mt-3 font-semibold">{t("subscribers.import.problemsTitle")}</h4>
          <ul className="mt-1 list-disc space-y-1 pl-5 break-all">
            {job.problems.map((p) => (
              <li key={p.line}>{t(`subscribers.import.problem.${p.reason}`, { line: p.line, value: p.value })}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
