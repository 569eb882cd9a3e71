import type { DB } from "../../db/db.server.ts";
import type { PostImportStatus } from "../../db/schema.server.ts";
import { emptyCounts, type ImportCounts, type ImportReportLine, REPORT_MAX_LINES } from "../core.server.ts";

// What an import says about itself: its status and counts for the admin page and the CLI, its
// report (bounded: the lines that need a look; the counts say the rest), and the dry run kept
// for download (docs/decisions/020-importers.md).

export interface PostImportJob extends ImportCounts {
  id: string;
  kind: string;
  status: PostImportStatus;
  label: string;
  processed: number;
  report: ImportReportLine[];
  createdAt: string;
  finishedAt: string | null;
  /** Whether the import's dry run was kept (staged on the admin page) and can be downloaded. */
  hasPlan: boolean;
}

/** An import's dry run or final report, as the admin page offers them for download. */
export interface PostImportReport {
  id: string;
  kind: string;
  label: string;
  status: PostImportStatus;
  createdAt: string;
  finishedAt: string | null;
  counts: ImportCounts;
  report: ImportReportLine[];
}

export const parseReport = (raw: string): ImportReportLine[] => {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? (v as ImportReportLine[]) : [];
  } catch {
    return [];
  }
};

/** A stored report with a chunk's lines added: those that need a look, up to REPORT_MAX_LINES. */
export function withChunkLines(stored: string, lines: readonly ImportReportLine[]): string {
  const worth = lines.filter(
    (l) =>
      l.outcome !== "imported" && l.outcome !== "updated" && !(l.outcome === "skipped" && l.reason === "unchanged"),
  );
  return JSON.stringify([...parseReport(stored), ...worth].slice(0, REPORT_MAX_LINES));
}

/** A stored report with the line that says the import was given up (one line past the limit allowed). */
export function withFailureLine(stored: string, label: string, error: unknown): string {
  const detail = (error instanceof Error ? error.message : String(error)).slice(0, 200);
  return JSON.stringify(
    [...parseReport(stored), { item: label, outcome: "failed" as const, reason: "importFailed", detail }].slice(
      0,
      REPORT_MAX_LINES + 1,
    ),
  );
}

export async function getPostImport(db: DB, id: string): Promise<PostImportJob | null> {
  const r = await db.selectFrom("postImports").selectAll().where("id", "=", id).executeTakeFirst();
  if (!r) return null;
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    label: r.label,
    total: Number(r.total),
    processed: Number(r.processed),
    imported: Number(r.imported),
    updated: Number(r.updated),
    skipped: Number(r.skipped),
    failed: Number(r.failed),
    imagesStored: Number(r.imagesStored),
    imagesMissing: Number(r.imagesMissing),
    redirectsAdded: Number(r.redirectsAdded),
    commentsAdded: Number(r.commentsAdded),
    pages: Number(r.pages),
    report: parseReport(r.report),
    hasPlan: r.plan !== null,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}

/** The latest imports, newest first, for the admin Import page. */
export async function recentPostImports(db: DB, limit = 3): Promise<PostImportJob[]> {
  const rows = await db
    .selectFrom("postImports")
    .select("id")
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const jobs = await Promise.all(rows.map((r) => getPostImport(db, r.id)));
  return jobs.filter((j): j is PostImportJob => j !== null);
}

/** Keeps a staged import's dry run (bounded like any report) for the admin to download. */
export async function savePostImportPlan(
  db: DB,
  id: string,
  plan: { counts: ImportCounts; report: ImportReportLine[] },
): Promise<void> {
  const report = plan.report.filter((l) => l.outcome !== "imported" && l.outcome !== "updated");
  const value = JSON.stringify({ counts: plan.counts, report: report.slice(0, REPORT_MAX_LINES) });
  await db.updateTable("postImports").set({ plan: value }).where("id", "=", id).execute();
}

/**
 * An import's report for download: `plan` is its kept dry run (null when none was kept), `final`
 * its own report and counts once it has ended (done or failed; null before).
 */
export async function postImportReport(db: DB, id: string, which: "plan" | "final"): Promise<PostImportReport | null> {
  const r = await db.selectFrom("postImports").selectAll().where("id", "=", id).executeTakeFirst();
  if (!r) return null;
  const base = {
    id: r.id,
    kind: r.kind,
    label: r.label,
    status: r.status,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
  if (which === "plan") {
    if (r.plan === null) return null;
    try {
      const v = JSON.parse(r.plan) as { counts?: Partial<ImportCounts>; report?: unknown };
      return {
        ...base,
        counts: { ...emptyCounts(), ...(v.counts ?? {}) },
        report: Array.isArray(v.report) ? (v.report as ImportReportLine[]) : [],
      };
    } catch {
      return null;
    }
  }
  if (r.status !== "done" && r.status !== "failed") return null;
  const job = await getPostImport(db, id);
  if (!job) return null;
  const {
    id: _i,
    kind: _k,
    status: _s,
    label: _l,
    processed: _p,
    report,
    createdAt: _c,
    finishedAt: _f,
    hasPlan: _h,
    ...counts
  } = job;
  return { ...base, counts, report };
}
