import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type QueryCompiler,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
  type Transaction,
} from "kysely";
import type { Pool } from "pg";
import type { DatabaseConfig } from "../platform/env.server.ts";
import { lazyModule } from "../platform/lazy-module.server.ts";
import { allowReuse } from "./reusable-query.server.ts";
import type { Database, DB } from "./schema.server.ts";
import { InliningSqliteQueryCompiler } from "./sqlite-compiler.server.ts";
import { RefuseNulText } from "./text-guard.server.ts";

// Most modules take the handle's type from here, beside the functions that open it.
export type { DB } from "./schema.server.ts";
export type Dialect = DatabaseConfig["dialect"];

export interface OpenDatabase {
  db: DB;
  dialect: Dialect;
  close(): Promise<void>;
}

const requireModule = createRequire(import.meta.url);

/**
 * The SQLite driver (better-sqlite3), loaded the first time a SQLite database is opened: a blog
 * on PostgreSQL never loads it. Synchronous, as opening a SQLite database is; Node keeps the
 * module once loaded, and a failed load throws and is tried again on the next call.
 */
export function sqliteDriver(): typeof SQLite {
  return requireModule("better-sqlite3") as typeof SQLite;
}

/**
 * The PostgreSQL driver, imported when a PostgreSQL database is first queried: a blog on
 * SQLite never loads it (~9 MiB resident). Kysely asks for the pool on its first query and
 * asks again after a failure.
 */
export const pgModule = lazyModule(() => import("pg"));

/** How many distinct SQL texts keep their prepared statement (queries are built from a fixed set). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 behind Kysely, with each SQL text prepared once and reused: Kysely's
 * SQLite driver prepares every query anew, and compiling the SQL cost more than running
 * it for the small indexed queries a page makes. A statement still being iterated (a
 * streamed query) is never handed out twice; the least recently prepared text goes
 * first once `max` are kept. SQLite re-prepares a statement by itself after a schema change.
 */
export function withStatementCache(database: SQLite.Database, max = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(text) {
      const cached = statements.get(text);
      if (cached && !cached.busy) return cached;
      const statement = database.prepare(text);
      if (cached) return statement; // busy: a one-off for this call
      if (statements.size >= max) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

/**
 * SQLite transactions that take the write lock when they begin (`begin immediate`).
 * A plain `begin` starts as a reader and upgrades on its first write; when another
 * process (the CLI importing, a test writing beside the server) has committed since
 * the read began, that upgrade fails at once with SQLITE_BUSY and the busy timeout
 * never applies. Taking the lock up front makes a transaction wait its turn instead.
 * Within one process nothing changes: Kysely runs one transaction at a time on the
 * single connection anyway.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createQueryCompiler(): QueryCompiler {
    return new InliningSqliteQueryCompiler();
  }
}

/**
 * Opens the database named by the configuration. SQLite runs in WAL mode with
 * foreign keys on, a busy timeout and immediate transactions so concurrent writers
 * wait instead of failing,
 * and synchronous=FULL so an acknowledged write survives a crash or power loss.
 */
export function openDatabase(config: DatabaseConfig, options: { poolMax?: number } = {}): OpenDatabase {
  if (config.dialect === "sqlite") {
    if (config.file !== ":memory:") mkdirSync(path.dirname(config.file), { recursive: true });
    const Driver = sqliteDriver();
    const database = new Driver(config.file);
    database.pragma("journal_mode = WAL");
    database.pragma("foreign_keys = ON");
    database.pragma("busy_timeout = 5000");
    database.pragma("synchronous = FULL");
    const db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
      plugins: [new RefuseNulText()],
    });
    // Its only plugin is the NUL guard, which reusable queries apply themselves.
    allowReuse(db);
    return { db, dialect: "sqlite", close: () => db.destroy() };
  }
  const createPool = async (): Promise<Pool> => {
    const { default: pg } = await pgModule();
    const pool = new pg.Pool({
      connectionString: config.connectionString,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
    });
    // A client losing its connection (database restart, `drop database … with (force)`)
    // must not crash the process. The pool listens on idle clients only; a client that is
    // checked out emits "error" with nobody listening, so each one gets its own listener.
    // The query in flight still fails, and the database health monitor takes it from there.
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    return pool;
  };
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: createPool }),
    plugins: [new RefuseNulText()],
  });
  allowReuse(db);
  return { db, dialect: "postgres", close: () => db.destroy() };
}

/** Carries a refused result out of a transaction, which rolls it back. */
class Refused<T> extends Error {
  result: T;
  constructor(result: T) {
    super("transaction refused");
    this.result = result;
  }
}

/**
 * Runs `fn` in a transaction that commits only when it answers `ok`; any other
 * answer rolls everything back and is returned as is. A write that failed on a
 * constraint (and was turned into a field error) must not be followed by a
 * COMMIT: PostgreSQL has already aborted the transaction and refuses it.
 */
export async function transactionIfOk<T extends { ok: boolean }>(
  db: DB,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      const result = await fn(trx);
      if (!result.ok) throw new Refused(result);
      return result;
    });
  } catch (error) {
    if (error instanceof Refused) return error.result as T;
    throw error;
  }
}

/** True when the database answers a trivial query within the time limit. */
export async function pingDatabase(db: DB, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("database ping timed out")), timeoutMs);
    });
    await Promise.race([sql`select 1`.execute(db), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The one way timestamps are written: ISO-8601 UTC with milliseconds. */
export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}
