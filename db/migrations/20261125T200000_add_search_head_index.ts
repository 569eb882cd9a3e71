import { type Kysely, SqliteAdapter, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
//
// PostgreSQL only: a GIN index over "postSearch"."headVector" (title and summary). A
// search ranks a bounded set of candidates: the newest rows matching anywhere and the
// newest rows matching in a title or summary, so an older post with the word in its
// title still competes. Without this index the second list tested every row's vector.
// SQLite finds the same rows through FTS5's column filter.

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create index if not exists "postSearch_headVector_idx" on "postSearch" using gin ("headVector")`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop index if exists "postSearch_headVector_idx"`.execute(db);
}
