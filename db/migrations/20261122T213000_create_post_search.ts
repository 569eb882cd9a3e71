import { type Kysely, SqliteAdapter, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.
//
// The full-text search index: one row per post and language, holding the title,
// summary and body already cut into tokens by the app (words separated by single
// spaces; Chinese segmented with jieba). The app writes "postSearch" the same way
// on both dialects; each database indexes it its own way:
//   - SQLite: an FTS5 table over "postSearch" (external content), kept in step by
//     triggers. "id" is an INTEGER PRIMARY KEY because FTS5 refers to rows by
//     rowid, and an implicit rowid may change on VACUUM.
//   - PostgreSQL: a generated tsvector column ('simple' configuration, title
//     weighted A, summary B, body C) with a GIN index.

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await db.schema
      .createTable("postSearch")
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
      .addColumn("locale", "text", (c) => c.notNull().check(sql`"locale" in ('en', 'zh')`))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("summary", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addUniqueConstraint("postSearch_postId_locale_key", ["postId", "locale"])
      .execute();
    await sql`create virtual table "postSearchFts" using fts5(
      "title", "summary", "body",
      content = 'postSearch', content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 0'
    )`.execute(db);
    await sql`create trigger "postSearch_ai" after insert on "postSearch" begin
      insert into "postSearchFts" ("rowid", "title", "summary", "body")
        values (new."id", new."title", new."summary", new."body");
    end`.execute(db);
    await sql`create trigger "postSearch_ad" after delete on "postSearch" begin
      insert into "postSearchFts" ("postSearchFts", "rowid", "title", "summary", "body")
        values ('delete', old."id", old."title", old."summary", old."body");
    end`.execute(db);
    await sql`create trigger "postSearch_au" after update on "postSearch" begin
      insert into "postSearchFts" ("postSearchFts", "rowid", "title", "summary", "body")
        values ('delete', old."id", old."title", old."summary", old."body");
      insert into "postSearchFts" ("rowid", "title", "summary", "body")
        values (new."id", new."title", new."summary", new."body");
    end`.execute(db);
    return;
  }

  await db.schema
    .createTable("postSearch")
    .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("locale", "text", (c) => c.notNull().check(sql`"locale" in ('en', 'zh')`))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("searchVector", sql`tsvector`, (c) =>
      c
        .generatedAlwaysAs(
          sql`setweight(to_tsvector('simple'::regconfig, "title"), 'A')
            || setweight(to_tsvector('simple'::regconfig, "summary"), 'B')
            || setweight(to_tsvector('simple'::regconfig, "body"), 'C')`,
        )
        .stored(),
    )
    .addPrimaryKeyConstraint("postSearch_pk", ["postId", "locale"])
    .execute();
  await sql`create index "postSearch_searchVector_idx" on "postSearch" using gin ("searchVector")`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) await sql`drop table "postSearchFts"`.execute(db);
  // Dropping the table drops its triggers (SQLite) and its index (PostgreSQL).
  await db.schema.dropTable("postSearch").execute();
}
