import { type Kysely, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * Post revisions: what a post said after each save (coalesced per author), and the
 * changes to a published post that readers do not see yet ("pending").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("postRevisions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    // Who saved it; null once that account is gone.
    .addColumn("authorId", "text")
    // "saved": the post held this after the save; "pending": changes to a live post not published yet.
    .addColumn("kind", "text", (c) => c.notNull().check(sql`"kind" in ('saved', 'pending')`))
    .addColumn("status", "text", (c) => c.notNull().check(sql`"status" in ('draft', 'published', 'scheduled')`))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("publishedAt", "text")
    .addColumn("categoryId", "text")
    // JSON array of tag names.
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("coverImageUrl", "text")
    .addColumn("coverAlt", "text", (c) => c.notNull().defaultTo(""))
    // JSON object by locale: title, summary, bodyMarkdown, seoTitle, seoDescription.
    .addColumn("translations", "text", (c) => c.notNull())
    // A pending revision to publish at this time (a scheduled update); null: on Update only.
    .addColumn("scheduledFor", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("postRevisions_postId_createdAt_idx")
    .on("postRevisions")
    .columns(["postId", "createdAt"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("postRevisions").execute();
}
