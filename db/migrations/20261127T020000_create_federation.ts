import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text on both dialects.

/**
 * Federation (docs/decisions/023-federation.md).
 *
 * "federationKv": Fedify's key–value store (key = the JSON of its key array).
 * "federationQueue": Fedify's message queue, durable: a message is deleted only once handled;
 * one being handled is locked until `lockedUntil`, so a crashed worker's messages run again.
 * "federationKeys": each actor's key pairs (RSA and Ed25519, JWK), made once.
 * "federationFollowers": who follows which actor (`actor` is the language: "en" or "zh").
 * "federationPosts": what each actor has federated of each post (the hash of what was sent),
 * so a change is sent as Update once and a post gone from the blog as Delete once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("federationKv")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", "text")
    .execute();
  await db.schema
    .createTable("federationQueue")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("orderingKey", "text")
    .addColumn("runAt", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lockedUntil", "text")
    .addColumn("lastError", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("federationQueue_due").on("federationQueue").columns(["runAt"]).execute();
  await db.schema
    .createTable("federationKeys")
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("algorithm", "text", (c) => c.notNull())
    .addColumn("publicJwk", "text", (c) => c.notNull())
    .addColumn("privateJwk", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("federationKeys_pk", ["actor", "algorithm"])
    .execute();
  await db.schema
    .createTable("federationFollowers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("followerUri", "text", (c) => c.notNull())
    .addColumn("inboxUrl", "text", (c) => c.notNull())
    .addColumn("sharedInboxUrl", "text")
    .addColumn("handle", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("server", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addUniqueConstraint("federationFollowers_actor_follower", ["actor", "followerUri"])
    .execute();
  await db.schema
    .createIndex("federationFollowers_actor_created")
    .on("federationFollowers")
    .columns(["actor", "createdAt", "id"])
    .execute();
  await db.schema
    .createTable("federationPosts")
    .addColumn("postId", "text", (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("federationPosts_pk", ["postId", "actor"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("federationPosts").execute();
  await db.schema.dropTable("federationFollowers").execute();
  await db.schema.dropTable("federationKeys").execute();
  await db.schema.dropTable("federationQueue").execute();
  await db.schema.dropTable("federationKv").execute();
}
