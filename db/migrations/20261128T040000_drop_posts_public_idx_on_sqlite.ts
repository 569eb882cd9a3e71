import { type Kysely, SqliteAdapter, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
//
// SQLite no longer has the partial index "posts_public_idx" (PostgreSQL keeps it: it walks
// it for list pages, 20261125T170000_add_id_to_posts_listed_idx.ts). That migration called
// it cheap dead weight on SQLite; it was not. To decide whether a partial index fits a
// statement, SQLite compares the statement's WHERE terms with the index's, and a bound
// parameter met in that comparison (the `"status" = ?` of every public-post query) is
// marked so that binding it again compiles the whole statement again. better-sqlite3 binds
// on every run: each query on posts was parsed and planned on each run (60–80 µs for a
// post page's joins, against 5–10 µs to run them). "posts_listed_idx" serves the same
// walks on SQLite (docs/decisions/024-lean-reading-pages.md, "Statements SQLite compiled
// on every run").

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await db.schema.dropIndex("posts_public_idx").ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await db.schema
    .createIndex("posts_public_idx")
    .ifNotExists()
    .on("posts")
    .columns(["publishedAt", "id"])
    .where(sql.ref("status"), "=", "published")
    .where(sql.ref("deletedAt"), "is", null)
    .execute();
}
