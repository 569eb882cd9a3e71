import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/** Private preview links of a draft or a live post's pending changes: only the token's hash is kept. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("previewLinks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    // SHA-256 of the secret token (hex); the token itself is shown once, to its creator.
    .addColumn("tokenHash", "text", (c) => c.notNull().unique())
    .addColumn("createdBy", "text")
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("revokedAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("previewLinks_postId_idx").on("previewLinks").column("postId").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("previewLinks").execute();
}
