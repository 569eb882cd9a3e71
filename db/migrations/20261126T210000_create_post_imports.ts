import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "importSources": what an importer made from what (docs/decisions/020-importers.md). One row per
 * (source kind, entity, source id): a post made from a Markdown file, an image stored from a file's
 * bytes. A second run of the same source finds its rows here and updates or skips instead of adding
 * again. `hash` is the source's content hash at the last write; `targetVersion` the post's version
 * then (a post edited since is not overwritten). No foreign key: a post deleted later leaves the row,
 * and the next run makes the post anew.
 *
 * "postImports": one import run, processed in the background a chunk of items at a time; `processed`
 * is the cursor (items with `seq` below it are done and deleted). `report` is a bounded JSON list of
 * report lines. "postImportItems": the items still to write, as JSON, numbered 0… per import.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("importSources")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("sourceId", "text", (c) => c.notNull())
    .addColumn("targetId", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("targetVersion", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("importSources_pk", ["source", "entity", "sourceId"])
    .execute();
  await db.schema
    .createTable("postImports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("rootDir", "text", (c) => c.notNull())
    .addColumn("actorId", "text")
    .addColumn("actorEmail", "text", (c) => c.notNull())
    .addColumn("authorId", "text")
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("imported", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("imagesStored", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("imagesMissing", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("redirectsAdded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("report", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("finishedAt", "text")
    .execute();
  await db.schema
    .createIndex("postImports_status_createdAt_idx")
    .on("postImports")
    .columns(["status", "createdAt"])
    .execute();
  await db.schema
    .createTable("postImportItems")
    .addColumn("importId", "text", (c) => c.notNull().references("postImports.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("postImportItems_pk", ["importId", "seq"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("postImportItems").execute();
  await db.schema.dropTable("postImports").execute();
  await db.schema.dropTable("importSources").execute();
}
