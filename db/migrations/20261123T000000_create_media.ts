import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "media": one row per uploaded image. Its files live in the store (local disk or
 * S3) under "<id>/": the main file named in `name` plus WebP variants listed in
 * `variants` (JSON). The columns follow the spec's object metadata (section 3).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("media")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("originalName", "text", (c) => c.notNull())
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("fullPath", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("md5Hash", "text", (c) => c.notNull())
    .addColumn("generation", "text", (c) => c.notNull())
    .addColumn("metageneration", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("contentType", "text", (c) => c.notNull())
    .addColumn("cacheControl", "text", (c) => c.notNull())
    .addColumn("contentDisposition", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("contentEncoding", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("contentLanguage", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("customMetadata", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("variants", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("uploadedBy", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("media_createdAt_idx").on("media").column("createdAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("media").execute();
}
