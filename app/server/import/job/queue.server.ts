import type { Actor } from "../../admin/audit.server.ts";
import type { DB } from "../../db/db.server.ts";
import { nowIso } from "../../db/db.server.ts";
import { newId } from "../../platform/ids.server.ts";
import { type ImportedPost, type ImportReportLine, REPORT_MAX_LINES } from "../core.server.ts";
import type { SourceRead } from "../markdown-folder.server.ts";
import { parseReport } from "./report.server.ts";

// An import before it runs (docs/decisions/020-importers.md): `reading` while its source is
// appended in batches, then `staged` (the admin page's dry run, waiting for a confirm) or
// `queued` for the worker. What happens once it runs is state.server.ts.

/** Items per transaction while a source is read: memory holds one batch, not the whole source. */
export const POST_IMPORT_QUEUE_BATCH = 200;

export interface PostImportSource {
  kind: string;
  label: string;
  rootDir: string;
  actor: Actor;
  authorId: string;
  /** Fetch remote images into the media library (`--fetch-remote`); otherwise they stay links, listed. */
  fetchRemote?: boolean;
}

/**
 * Starts an import whose source is still being read (status `reading`: no worker takes it).
 * The reader appends its posts in batches (appendPostImportItems) and then calls
 * finishPostImportRead. A process killed while reading leaves a `reading` import that nothing
 * runs: the next run of the same source drops it (dropReadingImports) and reads again
 * (docs/decisions/020-importers.md, "At scale").
 */
export async function beginPostImport(db: DB, input: PostImportSource, now = new Date()): Promise<string> {
  const id = newId();
  const at = nowIso(now);
  await db
    .insertInto("postImports")
    .values({
      id,
      kind: input.kind,
      status: "reading",
      label: input.label.slice(0, 500),
      rootDir: input.rootDir,
      actorId: input.actor.id,
      actorEmail: input.actor.email,
      authorId: input.authorId,
      fetchRemote: input.fetchRemote ? 1 : 0,
      total: 0,
      failed: 0,
      report: "[]",
      createdAt: at,
      updatedAt: at,
      finishedAt: null,
    })
    .execute();
  return id;
}

/**
 * Appends read posts (numbered after those already appended) and report lines of reading to an
 * import still `reading`, in one transaction. False when it is not reading any more.
 */
export async function appendPostImportItems(
  db: DB,
  id: string,
  posts: readonly ImportedPost[],
  problems: readonly ImportReportLine[] = [],
): Promise<boolean> {
  return appendPostImportPayloads(
    db,
    id,
    posts.map((p) => JSON.stringify(p)),
    problems,
  );
}

/** appendPostImportItems for posts already serialised (as the upload check's worker sends them). */
export async function appendPostImportPayloads(
  db: DB,
  id: string,
  payloads: readonly string[],
  problems: readonly ImportReportLine[] = [],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const job = await trx
      .selectFrom("postImports")
      .select(["total", "report"])
      .where("id", "=", id)
      .where("status", "=", "reading")
      .executeTakeFirst();
    if (!job) return false;
    const first = Number(job.total);
    for (let i = 0; i < payloads.length; i += 100) {
      await trx
        .insertInto("postImportItems")
        .values(payloads.slice(i, i + 100).map((payload, j) => ({ importId: id, seq: first + i + j, payload })))
        .execute();
    }
    const report = parseReport(job.report);
    const room = REPORT_MAX_LINES - report.length;
    await trx
      .updateTable("postImports")
      .set((eb) => ({
        total: first + payloads.length,
        failed: eb("failed", "+", problems.filter((p) => p.outcome === "failed").length),
        ...(problems.length > 0 && room > 0 ? { report: JSON.stringify([...report, ...problems.slice(0, room)]) } : {}),
        updatedAt: nowIso(),
      }))
      .where("id", "=", id)
      .execute();
    return true;
  });
}

/** The source is read: the import is queued (or staged, for the admin page's dry run first). */
export async function finishPostImportRead(db: DB, id: string, opts: { staged?: boolean } = {}): Promise<boolean> {
  const result = await db
    .updateTable("postImports")
    .set({ status: opts.staged ? "staged" : "queued", updatedAt: nowIso() })
    .where("id", "=", id)
    .where("status", "=", "reading")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Drops imports of this source left `reading` by a killed run (their items too); with `label`, only
 * those of that label (an export file: two exports may share a folder). Returns how many.
 */
export async function dropReadingImports(db: DB, kind: string, rootDir: string, label?: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("postImports")
      .select("id")
      .where("kind", "=", kind)
      .where("rootDir", "=", rootDir)
      .where("status", "=", "reading")
      .$if(label !== undefined, (qb) => qb.where("label", "=", (label ?? "").slice(0, 500)))
      .execute();
    for (const { id } of rows) {
      await trx.deleteFrom("postImportItems").where("importId", "=", id).execute();
      await trx.deleteFrom("postImports").where("id", "=", id).execute();
    }
    return rows.length;
  });
}

/**
 * Stores a read source as a queued import: the report lines of reading, and one item per post,
 * appended in batches. Returns its id. (Readers that stream append their batches themselves.)
 */
export async function queuePostImport(
  db: DB,
  input: PostImportSource & {
    read: SourceRead;
    /** Stored but not started until confirmed (the admin page's dry run first). */
    staged?: boolean;
  },
  now = new Date(),
): Promise<string> {
  const id = await beginPostImport(db, input, now);
  const { read } = input;
  await appendPostImportItems(db, id, [], read.problems);
  for (let i = 0; i < read.posts.length; i += POST_IMPORT_QUEUE_BATCH)
    await appendPostImportItems(db, id, read.posts.slice(i, i + POST_IMPORT_QUEUE_BATCH));
  await finishPostImportRead(db, id, { staged: input.staged === true });
  return id;
}

/** An unfinished import of the same kind and folder (a run that was killed): the CLI resumes it. */
export async function unfinishedImportOf(db: DB, kind: string, rootDir: string): Promise<string | null> {
  const row = await db
    .selectFrom("postImports")
    .select("id")
    .where("kind", "=", kind)
    .where("rootDir", "=", rootDir)
    .where("status", "in", ["queued", "running"])
    .orderBy("createdAt")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Starts a staged import of `actorId`'s; false when there is no such staged import. */
export async function confirmPostImport(db: DB, id: string, actorId: string, now = new Date()): Promise<boolean> {
  const at = nowIso(now);
  const result = await db
    .updateTable("postImports")
    .set({ status: "queued", createdAt: at, updatedAt: at })
    .where("id", "=", id)
    .where("actorId", "=", actorId)
    .where("status", "=", "staged")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops a staged import of `actorId`'s with its items; returns its folder (to remove), or null. */
export async function cancelPostImport(db: DB, id: string, actorId: string): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("postImports")
      .select("rootDir")
      .where("id", "=", id)
      .where("actorId", "=", actorId)
      .where("status", "=", "staged")
      .executeTakeFirst();
    if (!row) return null;
    await trx.deleteFrom("postImportItems").where("importId", "=", id).execute();
    await trx.deleteFrom("postImports").where("id", "=", id).execute();
    return row.rootDir;
  });
}

/** The folders unfinished imports (reading, staged, queued, running) still read. */
export async function importFoldersInUse(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom("postImports")
    .select("rootDir")
    .where("status", "in", ["reading", "staged", "queued", "running"])
    .execute();
  return rows.map((r) => r.rootDir);
}
