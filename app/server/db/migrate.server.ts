import type { Kysely } from "kysely";
import { type MigrationResultSet, Migrator } from "kysely/migration";
import { migrations } from "../../../db/migrations/index.ts";

export interface MigrationReport {
  applied: string[];
  pending: string[];
}

function migratorFor(db: Kysely<unknown>): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: "kysely_migration",
    migrationLockTableName: "kysely_migration_lock",
  });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === "Error");
    const name = failed ? ` (${failed.migrationName})` : "";
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`migration failed${name}: ${cause}`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Applies every pending migration, each in its own transaction. Kysely's migrator
 * takes a lock table row first, so concurrent starts apply each migration once.
 * Running it again is a no-op.
 */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  return unwrap(await migratorFor(db as unknown as Kysely<unknown>).migrateToLatest());
}

export async function migrationStatus<T>(db: Kysely<T>): Promise<MigrationReport> {
  const infos = await migratorFor(db as unknown as Kysely<unknown>).getMigrations();
  return {
    applied: infos.filter((m) => m.executedAt !== undefined).map((m) => m.name),
    pending: infos.filter((m) => m.executedAt === undefined).map((m) => m.name),
  };
}

/** Rolls back the most recent migration (for development and tests). */
export async function migrateDown<T>(db: Kysely<T>): Promise<string[]> {
  const result = await migratorFor(db as unknown as Kysely<unknown>).migrateDown();
  if (result.error) unwrap(result);
  return (result.results ?? []).map((r) => r.migrationName);
}
