import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
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
  const migrated = opts.migrate !== false;
  // A migrated database is a copy of one migrated once per set of migrations: running the
  // 43 migrations took 0.7–2.4 s per database, the copy a fraction of that.
  const template = migrated ? ` template "${await migratedTemplate(adminUrl)}"` : "";
  await adminQuery(adminUrl, `create database "${name}"${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ dialect: "postgres", connectionString: url.toString() }, { poolMax: 4 });
  return {
    ...database,
    cleanup: async () => {
      await database.close();
      await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

const migrationsDir = path.resolve(import.meta.dirname, "../../db/migrations");

/** Names the migrations' content: a template made from other migrations is never used. */
function migrationsKey(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(migrationsDir).sort()) {
    hash.update(file).update(readFileSync(path.join(migrationsDir, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

let template: Promise<string> | null = null;

/**
 * The name of a PostgreSQL database migrated to the latest schema and left without
 * connections, for `create database … template`. Test files run in several processes at
 * once: an advisory lock lets one of them build it (under another name, renamed when
 * complete, so a run killed half-way leaves nothing that looks finished).
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `inkwell_tpl_${migrationsKey()}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query("select pg_advisory_lock(hashtext('inkwell test template'))");
      const found = await client.query("select 1 from pg_database where datname = $1", [name]);
      if (found.rowCount === 0) {
        const building = `${name}_${randomBytes(4).toString("hex")}`;
        await client.query(`create database "${building}"`);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const database = openDatabase({ dialect: "postgres", connectionString: url.toString() }, { poolMax: 1 });
        try {
          await migrateToLatest(database.db);
        } finally {
          await database.close();
        }
        await client.query(`alter database "${building}" rename to "${name}"`);
      }
      return name;
    } finally {
      await client.query("select pg_advisory_unlock(hashtext('inkwell test template'))").catch(() => {});
      await client.end();
    }
  })();
  return template;
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
