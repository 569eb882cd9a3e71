import { randomBytes } from "node:crypto";
import pg from "pg";
import { type OpenDatabase, openDatabase } from "../../app/server/db/db.server.ts";
import { migrateToLatest } from "../../app/server/db/migrate.server.ts";

/**
 * A freshly migrated database for one test file: in-memory SQLite by default, or,
 * when TEST_DATABASE_URL is set, a new PostgreSQL database created beside it and
 * dropped by `cleanup()`.
 */
export interface TestDatabase extends OpenDatabase {
  cleanup(): Promise<void>;
}

export const testDialect = (): "sqlite" | "postgres" => (process.env.TEST_DATABASE_URL ? "postgres" : "sqlite");

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = openDatabase({ dialect: "sqlite", file: ":memory:" });
    if (opts.migrate !== false) await migrateToLatest(database.db);
    return { ...database, cleanup: () => database.close() };
  }
  const name = `inkwell_t_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ dialect: "postgres", connectionString: url.toString() }, { poolMax: 4 });
  if (opts.migrate !== false) await migrateToLatest(database.db);
  return {
    ...database,
    cleanup: async () => {
      await database.close();
      await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/**
 * A database for a server process under test: a SQLite file in `dataDir`, or a
 * fresh PostgreSQL database when TEST_DATABASE_URL is set. Not migrated: the
 * server migrates it at start.
 */
export async function createServerDatabaseUrl(
  dataDir: string,
): Promise<{ url: string; dialect: "sqlite" | "postgres"; cleanup(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return { url: `${dataDir}/inkwell.db`, dialect: "sqlite", cleanup: async () => {} };
  }
  const name = `inkwell_s_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dialect: "postgres",
    cleanup: () => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

export async function dropServerDatabase(url: string): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("only for PostgreSQL");
  const name = new URL(url).pathname.slice(1);
  await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
}
