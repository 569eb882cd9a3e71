import { type Kysely, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * Bans and the last sign-in on `users`. better-auth reads and writes only the
 * columns it knows, so these extra ones are ours alone (the defaults fill them on
 * sign-up). `lastSignInAt` is set when a session is created (sessions are deleted
 * on sign-out, so they cannot tell); existing users start from their newest session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("banned", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("users").addColumn("bannedAt", "text").execute();
  await db.schema.alterTable("users").addColumn("lastSignInAt", "text").execute();
  await sql`update "users" set "lastSignInAt" = (select max(s."createdAt") from sessions s where s."userId" = "users"."id")`.execute(
    db,
  );
  await db.schema.createIndex("users_createdAt_idx").on("users").column("createdAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("users_createdAt_idx").execute();
  await db.schema.alterTable("users").dropColumn("lastSignInAt").execute();
  await db.schema.alterTable("users").dropColumn("bannedAt").execute();
  await db.schema.alterTable("users").dropColumn("banned").execute();
}
