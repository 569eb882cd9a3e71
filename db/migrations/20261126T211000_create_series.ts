import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * Series (issue 23): a named, ordered run of posts. A post belongs to at most one series,
 * at a position in it; its revisions record both, so pending changes and restores carry them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("series")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("nameEn", "text", (c) => c.notNull())
    .addColumn("nameZh", "text", (c) => c.notNull())
    .addColumn("descriptionEn", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("descriptionZh", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  // No foreign key: SQLite cannot drop a column that has one. Deleting a series clears
  // its posts' seriesId and position in the same transaction; readers join on series.
  await db.schema.alterTable("posts").addColumn("seriesId", "text").execute();
  // The part number the author gave (1, 2, …); ties and gaps are allowed, readers see ranks.
  await db.schema.alterTable("posts").addColumn("seriesPosition", "integer").execute();
  await db.schema.createIndex("posts_seriesId_idx").on("posts").columns(["seriesId", "seriesPosition"]).execute();
  await db.schema.alterTable("postRevisions").addColumn("seriesId", "text").execute();
  await db.schema.alterTable("postRevisions").addColumn("seriesPosition", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postRevisions").dropColumn("seriesPosition").execute();
  await db.schema.alterTable("postRevisions").dropColumn("seriesId").execute();
  await db.schema.dropIndex("posts_seriesId_idx").execute();
  await db.schema.alterTable("posts").dropColumn("seriesPosition").execute();
  await db.schema.alterTable("posts").dropColumn("seriesId").execute();
  await db.schema.dropTable("series").execute();
}
