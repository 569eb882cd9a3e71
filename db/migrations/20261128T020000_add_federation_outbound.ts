import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text on both dialects.

/**
 * Federation, the outbound half (docs/decisions/023-federation.md, "Profile, follow box,
 * delivery log").
 *
 * "posts"."federate": 1 = the post is shared on the Fediverse (the editor's box), 0 = not.
 * Existing posts keep 1: the ones published before federation began are left out by date.
 * "federationDeliveries": one row per outbound delivery attempt to an inbox (its outcome:
 * sent, retrying, failed, gave-up, skipped), bounded by age and count.
 * "federationServers": servers whose deliveries fail: since when, and when they were
 * given up as dead (no deliveries until they are heard from again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("posts")
    .addColumn("federate", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable("federationDeliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("server", "text", (c) => c.notNull())
    .addColumn("inbox", "text", (c) => c.notNull())
    .addColumn("activityId", "text")
    .addColumn("activityType", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createIndex("federationDeliveries_created")
    .on("federationDeliveries")
    .columns(["createdAt", "id"])
    .execute();
  await db.schema
    .createIndex("federationDeliveries_outcome_created")
    .on("federationDeliveries")
    .columns(["outcome", "createdAt"])
    .execute();
  await db.schema
    .createTable("federationServers")
    .addColumn("server", "text", (c) => c.primaryKey())
    .addColumn("failingSince", "text", (c) => c.notNull())
    .addColumn("lastFailureAt", "text", (c) => c.notNull())
    .addColumn("deadSince", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("federationServers").execute();
  await db.schema.dropTable("federationDeliveries").execute();
  await db.schema.alterTable("posts").dropColumn("federate").execute();
}
