import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * "contentVersion": one counter every instance polls. Each content change bumps
 * it; an instance that sees a new value drops its rendered pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("contentVersion")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await (db as Kysely<{ contentVersion: { id: number; version: number; updatedAt: string } }>)
    .insertInto("contentVersion")
    .values({ id: 1, version: 1, updatedAt: new Date().toISOString() })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("contentVersion").execute();
}
