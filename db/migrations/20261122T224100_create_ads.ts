import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "ads": image or text advertisements in a placement (home_top, sidebar,
 * post_bottom, list_between), with a time window, a weight (1–100) and counters.
 * Never raw HTML: the text is plain and the link is an http(s) URL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("placement", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("imageUrl", "text")
    .addColumn("imageAlt", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("linkUrl", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("startsAt", "text")
    .addColumn("endsAt", "text")
    .addColumn("weight", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("impressions", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("clicks", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ads_placement_enabled_idx").on("ads").columns(["placement", "enabled"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("ads").execute();
}
