import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Days are "YYYY-MM-DD" (UTC) text on both dialects.

/**
 * Insights (docs/decisions/021-insights.md).
 *
 * "insightCounts": one row per day, metric and key with how many times it happened that day
 * (metric "views" key "", metric "post" key a post id, "referrer" a host, "search" a query …).
 * Instances add to it in batches; the daily roll-up writes "visitors".
 *
 * "insightVisitors": today's (and, until the roll-up, yesterday's) unique-visitor hashes:
 * sha256 of the day's salt, the address and the browser. Counted and deleted once the day is over.
 *
 * "insightSalts": the random salt of each day, shared by all instances; deleted with the
 * day's visitor hashes, after which no hash can be linked to an address again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("insightCounts")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("metric", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("insightCounts_pk", ["metric", "day", "key"])
    .execute();
  await db.schema
    .createTable("insightVisitors")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("insightVisitors_pk", ["day", "hash"])
    .execute();
  await db.schema
    .createTable("insightSalts")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("salt", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("insightSalts").execute();
  await db.schema.dropTable("insightVisitors").execute();
  await db.schema.dropTable("insightCounts").execute();
}
