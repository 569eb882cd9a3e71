import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "contentChanges": what each bump of "contentVersion" touched, by the version it
 * made ("*" for everything, else the space-separated tags of the pages it made
 * stale, e.g. "post:<id>"). An instance that sees the version move reads the
 * changes in between and drops only those pages. Only the latest few hundred rows
 * are kept; an instance that fell further behind drops everything.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("contentChanges")
    .addColumn("version", "integer", (c) => c.primaryKey())
    .addColumn("tags", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("contentChanges").execute();
}
