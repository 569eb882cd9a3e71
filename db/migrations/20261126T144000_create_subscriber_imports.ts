import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "subscriberImports": one uploaded subscriber CSV, imported in the background a chunk at a
 * time (docs/decisions/011-subscriber-import.md). `processed` is the cursor: the rows of
 * "subscriberImportRows" with `seq` below it are done (and already deleted). `problems` is the
 * JSON list of the first invalid rows (line, reason, value) for the report.
 *
 * "subscriberImportRows": the candidate rows still to import, numbered 0… per import; personal
 * data, deleted as each chunk commits and all at once when the import ends.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("subscriberImports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("fileName", "text", (c) => c.notNull())
    .addColumn("defaultLanguages", "text", (c) => c.notNull())
    .addColumn("actorId", "text", (c) => c.notNull())
    .addColumn("actorEmail", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("imported", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("existing", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("duplicates", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notSubscribed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("invalid", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("problems", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("finishedAt", "text")
    .execute();
  // The worker's question: the oldest import not finished.
  await db.schema
    .createIndex("subscriberImports_status_createdAt_idx")
    .on("subscriberImports")
    .columns(["status", "createdAt"])
    .execute();
  await db.schema
    .createTable("subscriberImportRows")
    .addColumn("importId", "text", (c) => c.notNull().references("subscriberImports.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("line", "integer", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("languages", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("createdAt", "text")
    .addPrimaryKeyConstraint("subscriberImportRows_pk", ["importId", "seq"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("subscriberImportRows").execute();
  await db.schema.dropTable("subscriberImports").execute();
}
