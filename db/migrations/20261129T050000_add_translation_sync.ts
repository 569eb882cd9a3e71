import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text on both dialects.

/**
 * Translations that know when they are out of date (issue 47, docs/decisions/034-translation-sync.md).
 * "postTranslations"."outdatedSince": when the post's other language changed (a saved edit of
 * its title, summary or body) after this version was last brought in line with it; null: up to
 * date, or the post has one language only.
 * "postTranslations"."syncedSource": the other language as this version was last brought in
 * line with it (JSON: title, summary, bodyMarkdown), kept while this version is out of date so
 * the editor can show what changed since; null while it is up to date (then the version it is in
 * line with is the other language as it stands).
 * Existing rows get null in both: every translation written before this starts up to date.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postTranslations").addColumn("outdatedSince", "text").execute();
  await db.schema.alterTable("postTranslations").addColumn("syncedSource", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postTranslations").dropColumn("syncedSource").execute();
  await db.schema.alterTable("postTranslations").dropColumn("outdatedSince").execute();
}
