import type { Transaction } from "kysely";
import { audit } from "../../admin/audit.server.ts";
import type { DB } from "../../db/db.server.ts";
import { nowIso } from "../../db/db.server.ts";
import type { Database } from "../../db/schema.server.ts";
import type { ImportCounts, ImportReportLine } from "../core.server.ts";
import { withChunkLines, withFailureLine } from "./report.server.ts";
import type { ImportJob } from "./types.server.ts";

// A queued import's life once the worker has it: `queued` → `running` (its cursor, `processed`,
// moves on with each chunk's transaction) → `done`, or `failed` after POST_IMPORT_MAX_FAILURES
// chunks failing in a row. Every move is guarded by the cursor the run read, so a run that lost
// its lease mid-chunk changes nothing (ImportMoved rolls its chunk back).

/** Chunks failing in a row before an import is given up. */
export const POST_IMPORT_MAX_FAILURES = 5;

/** Another run moved the import on first (a lease lost mid-chunk): this chunk is rolled back. */
export class ImportMoved extends Error {}

/** The oldest unfinished import: the one the worker works on. */
export async function nextImport(db: DB): Promise<ImportJob | undefined> {
  return db
    .selectFrom("postImports")
    .selectAll()
    .where("status", "in", ["queued", "running"])
    .orderBy("createdAt")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Marks an import whose items are all written as done, with its audit entry, and deletes its
 * items. False when another run moved it first.
 */
export async function finishImport(db: DB, job: ImportJob, at: string): Promise<boolean> {
  const processed = Number(job.processed);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("postImports")
      .set({ status: "done", finishedAt: at, updatedAt: at, failures: 0 })
      .where("id", "=", job.id)
      .where("status", "in", ["queued", "running"])
      .where("processed", "=", processed)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await trx.deleteFrom("postImportItems").where("importId", "=", job.id).execute();
    if (job.actorId)
      await audit(
        trx,
        { id: job.actorId, email: job.actorEmail },
        "posts.import",
        { type: "post" },
        {
          kind: job.kind,
          label: job.label,
          imported: Number(job.imported),
          updated: Number(job.updated),
          skipped: Number(job.skipped),
          failed: Number(job.failed),
          redirects: Number(job.redirectsAdded),
        },
      );
    return true;
  });
}

/**
 * In a chunk's transaction: deletes the chunk's items and moves the cursor past `lastSeq`, adding
 * the chunk's counts and report lines. Throws ImportMoved when another run moved it first.
 */
export async function advanceImport(
  trx: Transaction<Database>,
  job: ImportJob,
  chunk: { lastSeq: number; counts: ImportCounts; lines: readonly ImportReportLine[]; at: string },
): Promise<void> {
  const processed = Number(job.processed);
  const { lastSeq, counts, at } = chunk;
  await trx
    .deleteFrom("postImportItems")
    .where("importId", "=", job.id)
    .where("seq", ">=", processed)
    .where("seq", "<=", lastSeq)
    .execute();
  const current = await trx.selectFrom("postImports").select("report").where("id", "=", job.id).executeTakeFirst();
  // The report keeps what needs a look; the counts say the rest.
  const report = withChunkLines(current?.report ?? "[]", chunk.lines);
  const moved = await trx
    .updateTable("postImports")
    .set((eb) => ({
      status: "running",
      processed: lastSeq + 1,
      imported: eb("imported", "+", counts.imported),
      updated: eb("updated", "+", counts.updated),
      skipped: eb("skipped", "+", counts.skipped),
      failed: eb("failed", "+", counts.failed),
      imagesStored: eb("imagesStored", "+", counts.imagesStored),
      imagesMissing: eb("imagesMissing", "+", counts.imagesMissing),
      redirectsAdded: eb("redirectsAdded", "+", counts.redirectsAdded),
      commentsAdded: eb("commentsAdded", "+", counts.commentsAdded),
      pages: eb("pages", "+", counts.pages),
      report,
      failures: 0,
      updatedAt: at,
    }))
    .where("id", "=", job.id)
    .where("status", "in", ["queued", "running"])
    .where("processed", "=", processed)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new ImportMoved();
}

/**
 * Counts a failed chunk against the oldest unfinished import; at POST_IMPORT_MAX_FAILURES in a row
 * it is marked failed and its items deleted. True when the import was given up.
 */
export async function notePostImportFailure(db: DB, error: unknown, now = new Date()): Promise<boolean> {
  const job = await nextImport(db);
  if (!job) return false;
  const at = nowIso(now);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("postImports")
      .set((eb) => ({ failures: eb("failures", "+", 1), updatedAt: at }))
      .where("id", "=", job.id)
      .returning("failures")
      .executeTakeFirst();
    if (!row || Number(row.failures) < POST_IMPORT_MAX_FAILURES) return false;
    await trx
      .updateTable("postImports")
      .set({ status: "failed", finishedAt: at, updatedAt: at, report: withFailureLine(job.report, job.label, error) })
      .where("id", "=", job.id)
      .execute();
    await trx.deleteFrom("postImportItems").where("importId", "=", job.id).execute();
    return true;
  });
}
