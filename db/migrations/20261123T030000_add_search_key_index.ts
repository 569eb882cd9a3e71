import { type Kysely, SqliteAdapter } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
//
// SQLite only: a narrow index holding each "postSearch" row's id, post and language.
// Search joins every FTS5 match back to "postSearch" by rowid; through the table
// itself each lookup lands on a page of its own (the rows carry whole bodies), so a
// common word over 10,000 posts read ~40 MB of pages. The search query names this
// index (INDEXED BY) and reads ~150 pages instead. PostgreSQL's search reads the
// same columns from the row it has already found, so it needs nothing.

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await db.schema
    .createIndex("postSearch_keys")
    .ifNotExists()
    .on("postSearch")
    .columns(["id", "postId", "locale"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await db.schema.dropIndex("postSearch_keys").ifExists().execute();
}
