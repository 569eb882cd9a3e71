import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.

/**
 * Comments written by someone without an account here (imported from WordPress,
 * docs/decisions/022-wordpress-import.md): the name, e-mail and address they gave there.
 * Null for comments of accounts. The e-mail and address are kept for the admin only.
 * "postImports"."commentsAdded": how many comments an import wrote.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("comments").addColumn("guestName", "text").execute();
  await db.schema.alterTable("comments").addColumn("guestEmail", "text").execute();
  await db.schema.alterTable("comments").addColumn("guestUrl", "text").execute();
  await db.schema
    .alterTable("postImports")
    .addColumn("commentsAdded", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postImports").dropColumn("commentsAdded").execute();
  await db.schema.alterTable("comments").dropColumn("guestUrl").execute();
  await db.schema.alterTable("comments").dropColumn("guestEmail").execute();
  await db.schema.alterTable("comments").dropColumn("guestName").execute();
}
