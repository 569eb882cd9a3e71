import type { Kysely } from "kysely";

// Site settings (one JSON value per key, edited in the admin area) and messages
// sent through the contact form. Frozen once merged.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("siteSettings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("contactMessages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("new"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("contactMessages_createdAt_idx").on("contactMessages").column("createdAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("contactMessages").execute();
  await db.schema.dropTable("siteSettings").execute();
}
