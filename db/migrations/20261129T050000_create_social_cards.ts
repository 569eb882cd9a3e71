import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.

/**
 * "socialCards": each live post's Open Graph image in each of its languages (issue 48). The
 * file is stored like an upload, under "{id}/card.jpg"; "inputHash" sums up what the card was
 * drawn from (title, cover, site name, brand), so the card job redraws exactly the cards whose
 * inputs changed (docs/decisions/036-social-cards-and-brand.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("socialCards")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("postId", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("inputHash", "text", (c) => c.notNull())
    .addColumn("contentType", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addUniqueConstraint("socialCards_post_locale_unique", ["postId", "locale"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("socialCards").execute();
}
