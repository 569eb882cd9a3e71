import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/** "links": friend links, shown on /links and (when configured) in the footer. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("logoUrl", "text")
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("links_enabled_sortOrder_idx").on("links").columns(["enabled", "sortOrder"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("links").execute();
}
