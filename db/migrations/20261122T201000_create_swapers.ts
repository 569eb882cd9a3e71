import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/** "swapers": the home page carousel slides (docs/conventions.md, "Words the product uses"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("swapers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("titleEn", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("titleZh", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("imageUrl", "text", (c) => c.notNull())
    .addColumn("imageAlt", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("linkUrl", "text")
    .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("startsAt", "text")
    .addColumn("endsAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("swapers_enabled_sortOrder_idx")
    .on("swapers")
    .columns(["enabled", "sortOrder"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("swapers").execute();
}
