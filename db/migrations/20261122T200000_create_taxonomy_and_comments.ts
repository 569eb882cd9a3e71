import { type Kysely, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("categories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("nameEn", "text", (c) => c.notNull())
    .addColumn("nameZh", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("tags")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("nameEn", "text", (c) => c.notNull())
    .addColumn("nameZh", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("postTags")
    .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("tagId", "text", (c) => c.notNull().references("tags.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("postTags_pk", ["postId", "tagId"])
    .execute();
  await db.schema.createIndex("postTags_tagId_idx").on("postTags").columns(["tagId", "postId"]).execute();

  // Posts gain a cover given as a URL (the media library fills it in once it
  // exists), its alt text, and a trash: deletedAt set = in the trash.
  await db.schema.alterTable("posts").addColumn("coverImageUrl", "text").execute();
  await db.schema
    .alterTable("posts")
    .addColumn("coverAlt", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("posts").addColumn("deletedAt", "text").execute();
  await db.schema.createIndex("posts_categoryId_idx").on("posts").columns(["categoryId", "status"]).execute();

  await db.schema
    .createTable("comments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    // Null once the author's account is deleted (the comment stays, anonymised).
    .addColumn("authorId", "text")
    .addColumn("parentId", "text", (c) => c.references("comments.id").onDelete("cascade"))
    .addColumn("bodyMarkdown", "text", (c) => c.notNull())
    .addColumn("bodyHtml", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`"status" in ('pending', 'approved', 'hidden', 'spam')`),
    )
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("comments_postId_status_idx")
    .on("comments")
    .columns(["postId", "status", "createdAt"])
    .execute();
  await db.schema.createIndex("comments_status_idx").on("comments").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("comments_authorId_idx").on("comments").column("authorId").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("comments").execute();
  await db.schema.dropIndex("posts_categoryId_idx").execute();
  await db.schema.alterTable("posts").dropColumn("deletedAt").execute();
  await db.schema.alterTable("posts").dropColumn("coverAlt").execute();
  await db.schema.alterTable("posts").dropColumn("coverImageUrl").execute();
  await db.schema.dropTable("postTags").execute();
  await db.schema.dropTable("tags").execute();
  await db.schema.dropTable("categories").execute();
}
