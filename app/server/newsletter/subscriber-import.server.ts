import { createHash, randomBytes } from "node:crypto";
import { type Actor, audit } from "../admin/audit.server.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { SubscriberImportStatus } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import type { ImportFileRead, ImportProblem } from "./subscriber-csv.server.ts";

// A subscriber CSV is imported in the background (docs/decisions/011-subscriber-import.md):
// the upload stores its candidate rows as a queued import; the worker
// (newsletter/subscriber-import-job.server.ts) adds them a chunk per transaction, moving the import's
// cursor in the same transaction, so a crash resumes where the last chunk committed and no
// row is ever processed twice.

/** Rows per statement and per chunk: ~13 values each, well inside both dialects' limits on bound parameters. */
export const IMPORT_CHUNK = 500;
/** Chunks failing in a row before the import is given up (each failure is retried on the next run). */
export const IMPORT_MAX_FAILURES = 5;
/** How many imports the subscribers page shows. */
export const IMPORTS_SHOWN = 3;

/**
 * A stored token hash nobody holds the token of, in the form subscribers.server.ts stores
 * (sha256 hex of 256 random bits): an imported reader never gets a confirmation link, and
 * their unsubscribe links are made when mail is sent.
 */
const unusableTokenHash = () => createHash("sha256").update(randomBytes(32).toString("base64url")).digest("hex");

export interface ImportJobCounts {
  total: number;
  processed: number;
  imported: number;
  /** Addresses already on the list, whatever their status: left exactly as they were. */
  existing: number;
  duplicates: number;
  notSubscribed: number;
  invalid: number;
}

export interface ImportJob extends ImportJobCounts {
  id: string;
  status: SubscriberImportStatus;
  fileName: string;
  actorEmail: string;
  problems: ImportProblem[];
  createdAt: string;
  finishedAt: string | null;
}

/**
 * Stores a read file as a queued import: its counts, its report's problem lines and every
 * candidate row, in one transaction (a failure stores nothing). Returns the import's id.
 */
export async function queueSubscriberImport(
  db: DB,
  actor: Actor,
  file: { fileName: string; defaultLanguages: string; read: ImportFileRead },
  now = new Date(),
): Promise<string> {
  const at = nowIso(now);
  const id = newId();
  const { read } = file;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("subscriberImports")
      .values({
        id,
        status: "queued",
        fileName: file.fileName.slice(0, 200),
        defaultLanguages: file.defaultLanguages,
        actorId: actor.id,
        actorEmail: actor.email,
        total: read.candidates.length,
        duplicates: read.duplicates,
        notSubscribed: read.notSubscribed,
        invalid: read.invalid,
        problems: JSON.stringify(read.problems),
        createdAt: at,
        updatedAt: at,
        finishedAt: null,
      })
      .execute();
    for (let i = 0; i < read.candidates.length; i += IMPORT_CHUNK) {
      await trx
        .insertInto("subscriberImportRows")
        .values(
          read.candidates.slice(i, i + IMPORT_CHUNK).map((c, j) => ({
            importId: id,
            seq: i + j,
            line: c.line,
            email: c.email,
            languages: c.languages,
            locale: c.locale,
            createdAt: c.createdAt,
          })),
        )
        .execute();
    }
  });
  return id;
}

/** Another run moved the import on first (a lease lost mid-chunk): this chunk is rolled back. */
class ImportMoved extends Error {}

export type ChunkOutcome = "idle" | "progress" | "done";

/** The oldest import not finished (imports run one at a time, in upload order). */
async function nextImport(db: DB) {
  return db
    .selectFrom("subscriberImports")
    .select(["id", "processed", "total", "imported", "existing", "duplicates", "notSubscribed", "invalid", "fileName"])
    .select(["actorId", "actorEmail"])
    .where("status", "in", ["queued", "running"])
    .orderBy("createdAt")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Does one step of the oldest unfinished import: adds its next chunk of rows as **confirmed**
 * subscribers (never touching an address already present in any status), deletes those
 * stored rows and moves the cursor, all in one transaction; or, when no rows are left, marks
 * it done with its audit entry and deletes whatever rows remain. "idle" when nothing waits.
 */
export async function importNextChunk(db: DB, now = new Date(), chunk = IMPORT_CHUNK): Promise<ChunkOutcome> {
  const job = await nextImport(db);
  if (!job) return "idle";
  const at = nowIso(now);
  const rows = await db
    .selectFrom("subscriberImportRows")
    .select(["seq", "line", "email", "languages", "locale", "createdAt"])
    .where("importId", "=", job.id)
    .where("seq", ">=", job.processed)
    .orderBy("seq")
    .limit(chunk)
    .execute();

  if (rows.length === 0) {
    const actor = { id: job.actorId, email: job.actorEmail };
    const finished = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("subscriberImports")
        .set({ status: "done", finishedAt: at, updatedAt: at, failures: 0 })
        .where("id", "=", job.id)
        .where("status", "in", ["queued", "running"])
        .where("processed", "=", job.processed)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom("subscriberImportRows").where("importId", "=", job.id).execute();
      await audit(
        trx,
        actor,
        "subscribers.import",
        { type: "subscriber" },
        {
          fileName: job.fileName,
          imported: job.imported,
          existing: job.existing,
          duplicates: job.duplicates,
          notSubscribed: job.notSubscribed,
          invalid: job.invalid,
        },
      );
      return true;
    });
    return finished ? "done" : "progress";
  }

  // Ids and token hashes are made before the transaction, so it holds the database no longer than the writes.
  const values = rows.map((r) => ({
    id: newId(),
    email: r.email,
    locale: r.locale,
    languages: r.languages,
    status: "confirmed" as const,
    confirmTokenHash: unusableTokenHash(),
    unsubscribeTokenHash: unusableTokenHash(),
    confirmedAt: at,
    unsubscribedAt: null,
    bounceCount: 0,
    bouncedAt: null,
    createdAt: r.createdAt ?? at,
    updatedAt: at,
  }));
  const lastSeq = rows[rows.length - 1]?.seq ?? job.processed;
  try {
    await db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom("subscribers")
        .select("email")
        .where(
          "email",
          "in",
          values.map((v) => v.email),
        )
        .execute();
      const present = new Set(found.map((f) => f.email));
      const fresh = values.filter((v) => !present.has(v.email));
      // The unique address is only a backstop: someone subscribing at this very moment counts as present.
      const inserted =
        fresh.length === 0
          ? []
          : await trx
              .insertInto("subscribers")
              .values(fresh)
              .onConflict((oc) => oc.column("email").doNothing())
              .returning("id")
              .execute();
      await trx
        .deleteFrom("subscriberImportRows")
        .where("importId", "=", job.id)
        .where("seq", ">=", job.processed)
        .where("seq", "<=", lastSeq)
        .execute();
      const moved = await trx
        .updateTable("subscriberImports")
        .set((eb) => ({
          status: "running",
          processed: lastSeq + 1,
          imported: eb("imported", "+", inserted.length),
          existing: eb("existing", "+", rows.length - inserted.length),
          failures: 0,
          updatedAt: at,
        }))
        .where("id", "=", job.id)
        .where("status", "in", ["queued", "running"])
        .where("processed", "=", job.processed)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new ImportMoved();
    });
  } catch (error) {
    if (error instanceof ImportMoved) return "progress";
    throw error;
  }
  return "progress";
}

/**
 * Counts a failed chunk against the oldest unfinished import; at IMPORT_MAX_FAILURES in a row
 * it is marked failed, its stored rows deleted and the failure audited with the counts so far.
 * Returns true when the import was given up.
 */
export async function noteImportFailure(db: DB, now = new Date()): Promise<boolean> {
  const job = await nextImport(db);
  if (!job) return false;
  const at = nowIso(now);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("subscriberImports")
      .set((eb) => ({ failures: eb("failures", "+", 1), updatedAt: at }))
      .where("id", "=", job.id)
      .returning("failures")
      .executeTakeFirst();
    if (!row || row.failures < IMPORT_MAX_FAILURES) return false;
    await trx
      .updateTable("subscriberImports")
      .set({ status: "failed", finishedAt: at, updatedAt: at })
      .where("id", "=", job.id)
      .execute();
    await trx.deleteFrom("subscriberImportRows").where("importId", "=", job.id).execute();
    await audit(
      trx,
      { id: job.actorId, email: job.actorEmail },
      "subscribers.importFailed",
      { type: "subscriber" },
      { fileName: job.fileName, imported: job.imported, existing: job.existing, processed: job.processed },
    );
    return true;
  });
}

function parseProblems(raw: string): ImportProblem[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? (value as ImportProblem[]) : [];
  } catch {
    return [];
  }
}

/** The latest imports, newest first, for the subscribers page. */
export async function recentImports(db: DB, limit = IMPORTS_SHOWN): Promise<ImportJob[]> {
  const rows = await db
    .selectFrom("subscriberImports")
    .select([
      "id",
      "status",
      "fileName",
      "actorEmail",
      "total",
      "processed",
      "imported",
      "existing",
      "duplicates",
      "notSubscribed",
      "invalid",
      "problems",
      "createdAt",
      "finishedAt",
    ])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    total: Number(r.total),
    processed: Number(r.processed),
    imported: Number(r.imported),
    existing: Number(r.existing),
    duplicates: Number(r.duplicates),
    notSubscribed: Number(r.notSubscribed),
    invalid: Number(r.invalid),
    problems: parseProblems(r.problems),
  }));
}
