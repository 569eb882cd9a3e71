import enAdminLinks from "../../../locales/en/adminLinks.json";
import zhAdminLinks from "../../../locales/zh/adminLinks.json";
import type { Locale } from "../db/schema.server.ts";
import type { ImportCounts } from "./core.server.ts";
import type { PostImportReport } from "./job/report.server.ts";

// An import's report as a downloaded file (decision 020, "Report download"): JSON for tools (the
// stable reason codes, every field) and plain text for people, in the admin's language.

export type ReportWhich = "plan" | "final";
export type ReportFormat = "json" | "txt";

/** The file names the admin page links to, and what each one is. */
export const REPORT_FILES: Record<string, { which: ReportWhich; format: ReportFormat }> = {
  "dry-run.json": { which: "plan", format: "json" },
  "dry-run.txt": { which: "plan", format: "txt" },
  "report.json": { which: "final", format: "json" },
  "report.txt": { which: "final", format: "txt" },
};

const STRINGS = { en: enAdminLinks.import, zh: zhAdminLinks.import } as const;

const COUNT_KEYS: (keyof ImportCounts)[] = [
  "total",
  "imported",
  "updated",
  "pages",
  "skipped",
  "failed",
  "imagesStored",
  "imagesMissing",
  "redirectsAdded",
  "commentsAdded",
];

export function reportJson(r: PostImportReport, which: ReportWhich): string {
  return `${JSON.stringify(
    {
      report: which === "plan" ? "dry-run" : "final",
      id: r.id,
      kind: r.kind,
      file: r.label,
      status: r.status,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      counts: r.counts,
      lines: r.report,
    },
    null,
    2,
  )}\n`;
}

const lookup = (table: Record<string, string>, key: string | undefined): string | null =>
  key !== undefined && Object.hasOwn(table, key) ? (table[key] ?? null) : null;

/** One line a person reads: what happened, to what, why (the reason in words when known), and the detail. */
export function reportText(r: PostImportReport, which: ReportWhich, locale: Locale): string {
  const s = STRINGS[locale];
  const f = s.reportFile;
  const counts: Record<string, string> = { ...s.counts, total: f.total };
  const out: string[] = [
    which === "plan" ? f.titlePlan : f.titleFinal,
    "",
    `${f.file}: ${r.label}`,
    `${f.kind}: ${r.kind}`,
    `${f.status}: ${lookup(s.status, r.status) ?? r.status}`,
    `${f.created}: ${r.createdAt}`,
  ];
  if (r.finishedAt) out.push(`${f.finished}: ${r.finishedAt}`);
  out.push("");
  for (const key of COUNT_KEYS) out.push(`${counts[key] ?? key}: ${r.counts[key]}`);
  out.push("", `${f.lines} (${r.report.length})`);
  if (r.report.length === 0) out.push(s.reportEmpty);
  for (const l of r.report) {
    const reason = l.reason ? (lookup(s.reason, l.reason) ?? l.reason) : "";
    const outcome = lookup(s.outcome, l.outcome) ?? l.outcome;
    // One line each: a detail or name from the export may hold line breaks.
    const line = `${outcome} · ${l.item}${reason ? `: ${reason}` : ""}${l.detail ? ` (${l.detail})` : ""}`;
    out.push(`- ${line.replace(/[\r\n\u2028\u2029]+/g, " ")}`);
  }
  return `${out.join("\n")}\n`;
}
