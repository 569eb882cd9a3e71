import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/** Who changed what, when: one row per admin change. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("auditLog")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Kept as text (not a foreign key): the entry outlives a deleted account.
    .addColumn("actorId", "text")
    .addColumn("actorEmail", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entityType", "text", (c) => c.notNull())
    .addColumn("entityId", "text")
    .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auditLog_createdAt_idx").on("auditLog").column("createdAt").execute();
  await db.schema.createIndex("auditLog_entity_idx").on("auditLog").columns(["entityType", "entityId"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("auditLog").execute();
}
