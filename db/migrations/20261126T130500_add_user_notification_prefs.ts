import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * Reply notifications on `users`: `replyNotifications` (1 = mail me when someone
 * replies to my comment; on by default, turned off by the mail's stop link or the
 * account page) and `locale`, the language the user last used the site in (signing
 * in, commenting, changing the setting), for the mail we send them unasked. Null
 * until then: the site's default language. better-auth never reads these columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("replyNotifications", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("users").addColumn("locale", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("locale").execute();
  await db.schema.alterTable("users").dropColumn("replyNotifications").execute();
}
