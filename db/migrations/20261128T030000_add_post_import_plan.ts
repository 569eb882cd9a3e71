import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.

/**
 * "postImports"."plan": the dry run of a staged import (JSON: its counts and report lines), kept so
 * the admin can download it later beside the final report (docs/decisions/020-importers.md).
 * Null for imports started from the command line.
 * "postImports"."fetchRemote": 1 when remote images are fetched into the media library
 * (`--fetch-remote`, the page's checkbox), 0 when they stay links.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postImports").addColumn("plan", "text").execute();
  await db.schema
    .alterTable("postImports")
    .addColumn("fetchRemote", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postImports").dropColumn("fetchRemote").execute();
  await db.schema.alterTable("postImports").dropColumn("plan").execute();
}
