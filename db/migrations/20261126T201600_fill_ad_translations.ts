import { type Kysely, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.

/**
 * Existing ads were shown with their one content to every reader: that content
 * becomes both their English and their Chinese version, so readers of either
 * language see what they saw before, and the owner translates one of them in
 * the ad form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update "ads" set "titleZh" = "title", "textZh" = "text", "imageUrlZh" = "imageUrl", "imageAltZh" = "imageAlt" where "titleZh" = ''`.execute(
    db,
  );
}

/** The copies go with their columns (the previous migration's down). */
export async function down(): Promise<void> {}
