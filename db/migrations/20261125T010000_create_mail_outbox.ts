import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "mailOutbox": every mail the site sends, written where the change that causes it
 * is written and sent by one worker (the holder of the "mail" job lease). `key` is
 * unique: the same mail (a newsletter to one subscriber, one verification link) can
 * be queued only once, however often the code that queues it runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("mailOutbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("html", "text")
    .addColumn("headers", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("nextAttemptAt", "text", (c) => c.notNull())
    .addColumn("lastError", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("sentAt", "text")
    .execute();
  // The worker's question: what is due now, oldest first.
  await db.schema.createIndex("mailOutbox_due").on("mailOutbox").columns(["status", "nextAttemptAt"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mailOutbox").execute();
}
