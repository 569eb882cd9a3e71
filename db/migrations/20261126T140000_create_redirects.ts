import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "redirects": old URLs answered with a 301 or 302 before routing (docs/decisions/012-redirects.md).
 * `fromPath` is the normalised path, with the query exactly as written when there is one
 * ("/old-post", "/?p=123"); `toPath` a site path, or an https:// URL when `external` is 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("redirects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("fromPath", "text", (c) => c.notNull().unique())
    .addColumn("toPath", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull().defaultTo(301))
    .addColumn("external", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hits", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastHitAt", "text")
    .addColumn("source", "text", (c) => c.notNull().defaultTo("manual"))
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  // Re-pointing the rows that lead to a path when that path gets a redirect of its own.
  await db.schema.createIndex("redirects_toPath_idx").on("redirects").column("toPath").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("redirects").execute();
}
