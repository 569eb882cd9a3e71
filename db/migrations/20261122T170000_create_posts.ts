import { type Kysely, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("posts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("authorId", "text")
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("draft").check(sql`"status" in ('draft', 'published', 'scheduled')`),
    )
    .addColumn("publishedAt", "text")
    .addColumn("categoryId", "text")
    .addColumn("coverImageId", "text")
    .addColumn("featured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("viewCount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema.createIndex("posts_status_publishedAt_idx").on("posts").columns(["status", "publishedAt"]).execute();
  await db.schema.createIndex("posts_authorId_idx").on("posts").column("authorId").execute();

  await db.schema
    .createTable("postTranslations")
    .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("locale", "text", (c) => c.notNull().check(sql`"locale" in ('en', 'zh')`))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bodyMarkdown", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bodyHtml", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("tocJson", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("readingMinutes", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("seoTitle", "text")
    .addColumn("seoDescription", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("postTranslations_pk", ["postId", "locale"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("postTranslations").execute();
  await db.schema.dropTable("posts").execute();
}
