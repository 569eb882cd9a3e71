import { type Kysely, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("subscribers")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Normalised: trimmed, lower-case.
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("locale", "text", (c) => c.notNull().check(sql`"locale" in ('en', 'zh')`))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`"status" in ('pending', 'confirmed', 'unsubscribed')`),
    )
    // sha256 hex of the tokens in the mail; the tokens themselves are never stored.
    .addColumn("confirmTokenHash", "text", (c) => c.notNull().unique())
    .addColumn("unsubscribeTokenHash", "text", (c) => c.notNull().unique())
    .addColumn("confirmedAt", "text")
    .addColumn("unsubscribedAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("subscribers_status_idx").on("subscribers").column("status").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("subscribers").execute();
}
