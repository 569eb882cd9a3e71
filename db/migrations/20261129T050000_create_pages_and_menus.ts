import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * Pages (issue 48): bilingual Markdown at an address of the owner's choosing (`/{slug}`),
 * a table of their own so that no post query (lists, feeds, search, sitemap, newsletter,
 * Fediverse) can ever pick one up (docs/decisions/035-pages-and-menus.md). `systemKey` marks
 * the pages the site links itself (about, contact, privacy): their address is fixed.
 * Each save keeps a revision (`pageRevisions`, the page's fields as JSON). Menus: one row per
 * menu and language ("main:en", "footer:zh"), its items as JSON; no row = the default menu.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("pages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("systemKey", "text", (c) => c.unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("titleEn", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("titleZh", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bodyEn", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bodyZh", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("descriptionEn", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("descriptionZh", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("authorId", "text")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("publishedAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("pageRevisions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("pageId", "text", (c) => c.notNull().references("pages.id").onDelete("cascade"))
    .addColumn("authorId", "text")
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("pageRevisions_pageId_idx")
    .on("pageRevisions")
    .columns(["pageId", "createdAt"])
    .execute();
  await db.schema
    .createTable("menus")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("items", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("menus").execute();
  await db.schema.dropIndex("pageRevisions_pageId_idx").execute();
  await db.schema.dropTable("pageRevisions").execute();
  await db.schema.dropTable("pages").execute();
}
