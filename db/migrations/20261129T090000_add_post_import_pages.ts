import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.

/**
 * "postImports"."pages": how many of an import's items were written as pages (imported or
 * updated) rather than posts (issue 48, docs/decisions/035-pages-and-menus.md, "Importing pages").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("postImports")
    .addColumn("pages", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("postImports").dropColumn("pages").execute();
}
