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
