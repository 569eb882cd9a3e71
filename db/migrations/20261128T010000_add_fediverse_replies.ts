import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text on both dialects.

/**
 * Replies, likes, boosts and blocks from the Fediverse (docs/decisions/023-federation.md).
 *
 * "federationRemoteActors": the remote accounts that replied, liked or boosted: their id
 * (the actor's URI), profile address, "@user@server" handle, display name, avatar address
 * (stored, never shown to readers' browsers) and server.
 * "comments"."remoteNoteUri": the id of the Note a comment came from (unique: a replayed
 * Create stores nothing new); "remoteActorUri": who wrote it; "remoteUrl": the note's page.
 * "federationReactions": one Like or Announce per post, remote actor and kind.
 * "federationBlocks": blocked actors (by URI) and domains.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("federationRemoteActors")
    .addColumn("uri", "text", (c) => c.primaryKey())
    .addColumn("url", "text")
    .addColumn("handle", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("avatarUrl", "text")
    .addColumn("server", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("comments").addColumn("remoteNoteUri", "text").execute();
  await db.schema.alterTable("comments").addColumn("remoteActorUri", "text").execute();
  await db.schema.alterTable("comments").addColumn("remoteUrl", "text").execute();
  await db.schema.createIndex("comments_remoteNoteUri").unique().on("comments").column("remoteNoteUri").execute();
  await db.schema.createIndex("comments_remoteActorUri").on("comments").column("remoteActorUri").execute();
  await db.schema
    .createTable("federationReactions")
    .addColumn("postId", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("actorUri", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("activityUri", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("federationReactions_pk", ["postId", "actorUri", "kind"])
    .execute();
  await db.schema.createIndex("federationReactions_activity").on("federationReactions").column("activityUri").execute();
  await db.schema
    .createTable("federationBlocks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addUniqueConstraint("federationBlocks_kind_value", ["kind", "value"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("federationBlocks").execute();
  await db.schema.dropTable("federationReactions").execute();
  await db.schema.dropIndex("comments_remoteActorUri").execute();
  await db.schema.dropIndex("comments_remoteNoteUri").execute();
  await db.schema.alterTable("comments").dropColumn("remoteUrl").execute();
  await db.schema.alterTable("comments").dropColumn("remoteActorUri").execute();
  await db.schema.alterTable("comments").dropColumn("remoteNoteUri").execute();
  await db.schema.dropTable("federationRemoteActors").execute();
}
