import type { DB, OpenDatabase } from "../db/db.server.ts";

/**
 * Runs `fn` inside one read snapshot, so every table it reads belongs to the same
 * moment: PostgreSQL's REPEATABLE READ, read only; on SQLite (WAL) a transaction
 * sees one snapshot from its first read to its end.
 */
export async function inSnapshot<T>(database: OpenDatabase, fn: (trx: DB) => Promise<T>): Promise<T> {
  if (database.dialect === "postgres") {
    return database.db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute(fn);
  }
  return database.db.transaction().execute(fn);
}
