import { createHash } from "node:crypto";
import { type RawBuilder, sql } from "kysely";
import { migrations } from "../../../db/migrations/index.ts";
import { bumpContentVersion } from "../cache/content-version.server.ts";
import type { DB, OpenDatabase } from "../db/db.server.ts";
import type { Database } from "../db/schema.server.ts";
import { refreshStatistics } from "../db/statistics.server.ts";
import { countOwnPages, dropMadeSystemPages, ensureSystemPages } from "../pages/system-pages.server.ts";
import { reindexAll } from "../search/index.server.ts";

/**
 * The tables a logical copy (backup on PostgreSQL, restore across dialects, the
 * portable export) moves, parents before children so foreign keys hold as rows go
 * in. Left out on purpose: the search index ("postSearch": dialect-specific, rebuilt
 * after a load), "contentVersion" (its one row is made by a migration; bumped after
 * a load) and "contentChanges" (a short log of those bumps), "jobLeases" (names processes that are gone),
 * "subscriberImports" and "subscriberImportRows" (a background import's transient state: the rows are
 * personal data kept only until the import ends, and the result is in "subscribers" and the audit log;
 * docs/decisions/011-subscriber-import.md), "postImports" and "postImportItems" (a post import's transient
 * state; "importSources", what the importers made, is kept), "insightVisitors" and "insightSalts" (a day's
 * visitor hashes and their salt, deleted when the day is counted: docs/decisions/021-insights.md), "socialCards"
 * (the posts' social cards: the card job draws them again after a load) and Kysely's
 * migration tables (the target is migrated by our
 * own history instead).
 */
export type TableName = keyof Database;

export interface TableSpec {
  name: TableName;
  /** Primary key columns: the order rows are read in. */
  key: string[];
}

export const LOGICAL_TABLES: readonly TableSpec[] = [
  { name: "users", key: ["id"] },
  { name: "accounts", key: ["id"] },
  { name: "sessions", key: ["id"] },
  { name: "verifications", key: ["id"] },
  { name: "admins", key: ["email"] },
  { name: "rateLimits", key: ["key"] },
  { name: "setupTokens", key: ["tokenHash"] },
  { name: "siteSettings", key: ["key"] },
  { name: "contactMessages", key: ["id"] },
  { name: "subscribers", key: ["id"] },
  { name: "categories", key: ["id"] },
  { name: "tags", key: ["id"] },
  { name: "series", key: ["id"] },
  { name: "media", key: ["id"] },
  { name: "posts", key: ["id"] },
  { name: "postTranslations", key: ["postId", "locale"] },
  { name: "postTags", key: ["postId", "tagId"] },
  { name: "postRevisions", key: ["id"] },
  { name: "previewLinks", key: ["id"] },
  { name: "comments", key: ["id"] },
  { name: "swapers", key: ["id"] },
  { name: "links", key: ["id"] },
  { name: "pages", key: ["id"] },
  { name: "pageRevisions", key: ["id"] },
  { name: "menus", key: ["key"] },
  { name: "redirects", key: ["id"] },
  { name: "importSources", key: ["source", "entity", "sourceId"] },
  { name: "ads", key: ["id"] },
  { name: "auditLog", key: ["id"] },
  { name: "mailOutbox", key: ["id"] },
  { name: "insightCounts", key: ["metric", "day", "key"] },
];

export type Row = Record<string, unknown>;
export type TableRows = Partial<Record<TableName, Row[]>>;

/** The newest migration this code knows: the schema version backups and exports record. */
export const CODE_SCHEMA_VERSION = Object.keys(migrations).sort().at(-1) ?? "";

/** The newest migration applied to this database ("" when none). */
export async function schemaVersion(db: DB): Promise<string> {
  const result = await sql<{
    name: string;
  }>`select "name" from "kysely_migration" order by "name" desc limit 1`.execute(db);
  return result.rows[0]?.name ?? "";
}

/** Refuses data written by a newer schema than this code has: its rows may not fit. */
export function assertKnownSchema(version: string, what: string): void {
  if (version && !(version in migrations)) {
    throw new Error(
      `${what} comes from schema version ${version}, which this version of Inkwell does not know (newest: ${CODE_SCHEMA_VERSION}); upgrade Inkwell first`,
    );
  }
}

const PAGE = 1000;

/** Every row of one table, in primary key order, read a page at a time. */
export async function* readTable(db: DB, spec: TableSpec): AsyncGenerator<Row[]> {
  const order = sql.join(spec.key.map((k) => sql.ref(k)));
  for (let offset = 0; ; offset += PAGE) {
    const { rows } =
      await sql<Row>`select * from ${sql.table(spec.name)} order by ${order} limit ${PAGE} offset ${offset}`.execute(
        db,
      );
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
  }
}

export async function readAllRows(db: DB, spec: TableSpec): Promise<Row[]> {
  const out: Row[] = [];
  for await (const page of readTable(db, spec)) out.push(...page);
  return out;
}

export async function countRows(db: DB, table: TableName): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as "n" from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The tables among `tables` that hold rows, with their counts. About, Contact and Privacy as
 * the migrations made them are no content (a new database has them): the pages count once
 * edited, or the owner's own.
 */
export async function nonEmptyTables(db: DB, tables: readonly TableSpec[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) {
    const n = t.name === "pages" ? await countOwnPages(db) : await countRows(db, t.name);
    if (n > 0) out.push(`${t.name} (${n})`);
  }
  return out;
}

/** Comments reply to comments: a parent must go in before its replies. */
function parentsFirst(rows: Row[]): Row[] {
  const ids = new Set(rows.map((r) => r.id));
  const placed = new Set<unknown>();
  const out: Row[] = [];
  let left = rows;
  while (left.length > 0) {
    const next: Row[] = [];
    for (const row of left) {
      const parent = row.parentId;
      if (parent === null || parent === undefined || placed.has(parent) || !ids.has(parent)) {
        out.push(row);
        placed.add(row.id);
      } else next.push(row);
    }
    if (next.length === left.length) throw new Error("comments: a reply chain loops back on itself");
    left = next;
  }
  return out;
}

async function insertRows(db: DB, table: TableName, columns: string[], rows: Row[]): Promise<void> {
  // Well under SQLite's and PostgreSQL's limits on bound parameters per statement.
  const perStatement = Math.max(1, Math.floor(5000 / Math.max(1, columns.length)));
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  for (let i = 0; i < rows.length; i += perStatement) {
    const values: RawBuilder<unknown>[] = rows
      .slice(i, i + perStatement)
      .map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? null))})`);
    await sql`insert into ${sql.table(table)} (${cols}) values ${sql.join(values)}`.execute(db);
  }
}

/** The column names of a table as the target database has them. */
async function columnsOf(db: DB, table: TableName): Promise<Set<string>> {
  const tables = await db.introspection.getTables();
  const found = tables.find((t) => t.name === table);
  return new Set(found?.columns.map((c) => c.name) ?? []);
}

/**
 * Writes the rows into `trx` (a transaction: a failure leaves nothing), in
 * LOGICAL_TABLES order. With `replace`, first empties those tables. Every column
 * a row carries must exist in the target, or nothing is written.
 */
export async function loadRows(trx: DB, data: TableRows, opts: { replace: boolean }): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  if (opts.replace) {
    for (const t of [...LOGICAL_TABLES].reverse()) await sql`delete from ${sql.table(t.name)}`.execute(trx);
  } else if ((data.pages?.length ?? 0) > 0) {
    // The load brings its own About, Contact and Privacy: the made ones of an empty database go.
    await dropMadeSystemPages(trx);
  }
  for (const spec of LOGICAL_TABLES) {
    const rows = data[spec.name];
    if (!rows || rows.length === 0) continue;
    const known = await columnsOf(trx, spec.name);
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const unknown = columns.filter((c) => !known.has(c));
    if (unknown.length > 0) {
      throw new Error(`${spec.name}: column(s) ${unknown.join(", ")} do not exist in this database`);
    }
    await insertRows(trx, spec.name, columns, spec.name === "comments" ? parentsFirst(rows) : rows);
    counts[spec.name] = rows.length;
  }
  if ((data.pages?.length ?? 0) === 0) {
    // From before pages (their texts in the old setting), or a replace that emptied them.
    const legacy = data.siteSettings?.find((r) => r.key === "pages")?.value;
    await ensureSystemPages(trx, typeof legacy === "string" ? legacy : null);
  }
  return counts;
}

/**
 * After a logical load: rebuild the search index, give PostgreSQL's planner statistics
 * for the loaded rows (it plans freshly loaded tables as nearly empty) and tell every
 * instance content changed.
 */
export async function afterLoad(database: OpenDatabase): Promise<void> {
  await reindexAll(database.db);
  await refreshStatistics(database, { all: true });
  await bumpContentVersion(database.db);
}

/** A value as both dialects agree on it (PostgreSQL returns bigint as text). */
function normalize(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  return value ?? null;
}

/** One row, keys sorted, as a stable string. */
export function canonicalRow(row: Row): string {
  const keys = Object.keys(row).sort();
  return JSON.stringify(keys.map((k) => [k, normalize(row[k])]));
}

/**
 * Row count and a SHA-256 over every row (canonical form, sorted) of each table:
 * two databases with the same digests hold the same content.
 */
export async function tableDigests(
  db: DB,
  tables: readonly TableSpec[] = LOGICAL_TABLES,
): Promise<Record<string, { rows: number; sha256: string }>> {
  const out: Record<string, { rows: number; sha256: string }> = {};
  for (const spec of tables) {
    const lines = (await readAllRows(db, spec)).map(canonicalRow).sort();
    out[spec.name] = { rows: lines.length, sha256: createHash("sha256").update(lines.join("\n")).digest("hex") };
  }
  return out;
}
