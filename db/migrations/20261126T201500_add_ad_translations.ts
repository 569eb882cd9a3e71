import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * An ad's Chinese content beside its English content. The English columns keep
 * their old names (`title`, `text`, `imageUrl`, `imageAlt`), so exports and
 * backups made before this migration still load. An empty Chinese title means
 * the ad has no Chinese version (Chinese readers see the English one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("ads")
    .addColumn("titleZh", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("ads")
    .addColumn("textZh", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("ads").addColumn("imageUrlZh", "text").execute();
  await db.schema
    .alterTable("ads")
    .addColumn("imageAltZh", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("ads").dropColumn("imageAltZh").execute();
  await db.schema.alterTable("ads").dropColumn("imageUrlZh").execute();
  await db.schema.alterTable("ads").dropColumn("textZh").execute();
  await db.schema.alterTable("ads").dropColumn("titleZh").execute();
}
