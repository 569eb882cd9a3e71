import { type RawBuilder, type SelectQueryBuilder, sql } from "kysely";

/**
 * Query rules every repository shares. Repositories stay plain functions taking `db`
 * first; what they would otherwise each write again lives here.
 */

/** A LIKE pattern matching `q` anywhere, case-folded, with `\`, `%` and `_` taken literally (ESCAPE '\'). */
export function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Whether a write failed on a unique constraint (or primary key): PostgreSQL's
 * SQLSTATE 23505, better-sqlite3's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY; the
 * message is the fallback for drivers that wrap the error.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
  const message = error instanceof Error ? error.message : "";
  return /UNIQUE constraint failed|duplicate key value violates unique constraint/.test(message);
}

/** What COUNT(*) comes back as: a number on SQLite, a string (bigint) on PostgreSQL. */
export type CountValue = number | string | bigint;

/** How many rows a query (its FROM, joins and WHERE; no columns chosen yet) finds. */
export async function countRows<D, TB extends keyof D, O>(query: SelectQueryBuilder<D, TB, O>): Promise<number> {
  // Generic over the tables, Kysely cannot name the result's type: it is this one column.
  const row = (await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<CountValue>().as("n"))
    .executeTakeFirstOrThrow()) as { n: CountValue };
  return Number(row.n);
}

/** Whether any of `columns` contains `q`, case-folded, with LIKE's wildcards taken literally. */
export function containsText(columns: readonly string[], q: string): RawBuilder<boolean> {
  const like = likePattern(q);
  return sql<boolean>`(${sql.join(
    columns.map((column) => sql`lower(${sql.ref(column)}) like ${like} escape '\\'`),
    sql` or `,
  )})`;
}
