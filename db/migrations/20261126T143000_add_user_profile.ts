import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * A public profile on `users`: `handle`, the unique URL-safe name of the author page
 * (/authors/{handle}; set once, never derived from the e-mail address), and `bio`, a
 * short text the user writes on the account page. `mailOutbox.fromName` is the
 * sender's display name of a queued mail (the site's name in the recipient's
 * language), null for mail queued before it existed. better-auth never reads these.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("handle", "text").execute();
  await db.schema.alterTable("users").addColumn("bio", "text").execute();
  await db.schema.createIndex("users_handle_key").unique().on("users").column("handle").execute();
  await db.schema.alterTable("mailOutbox").addColumn("fromName", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mailOutbox").dropColumn("fromName").execute();
  await db.schema.dropIndex("users_handle_key").execute();
  await db.schema.alterTable("users").dropColumn("bio").execute();
  await db.schema.alterTable("users").dropColumn("handle").execute();
}
