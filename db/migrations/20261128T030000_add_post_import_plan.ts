import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.

/**
 * "postImports"."plan": the dry run of a staged import (JSON: its counts and report lines), kept so
 * the admin can download it later beside the final report (docs/decisions/020-importers.md).
 * Null for imports started from the command line.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postImports").addColumn("plan", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postImports").dropColumn("plan").execute();
}
