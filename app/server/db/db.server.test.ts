import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { openDatabase, transactionIfOk, withStatementCache } from "./db.server.ts";
import { isDatabaseUnavailable } from "./health.server.ts";

describe("the PostgreSQL pool", () => {
  // An unhandled "error" event would crash the process (here: fail the test run).
  it.runIf(testDialect() === "postgres")(
    "survives the connection of a checked-out client being killed, and the query fails cleanly",
    async () => {
      const database = await createTestDatabase();
      try {
        const outcome = await database.db
          .transaction()
          .execute(async (trx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
            const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
            await admin.connect();
            try {
              await admin.query("select pg_terminate_backend($1)", [rows[0]?.pid]);
            } finally {
              await admin.end();
            }
            // Let the termination arrive while this client is still checked out.
            await new Promise((r) => setTimeout(r, 300));
            await sql`select 1`.execute(trx);
            return "still connected";
          })
          .catch((error: unknown) => error);
        expect(outcome).toBeInstanceOf(Error);
        expect(isDatabaseUnavailable(outcome)).toBe(true);
        // The pool replaces the dead client.
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
        expect(rows[0]?.one).toBe(1);
      } finally {
        await database.cleanup();
      }
    },
  );
});

describe("transactionIfOk", () => {
  it("commits an ok answer, and rolls back every write of a refused one, even after a constraint error", async () => {
    const database = await createTestDatabase();
    const now = new Date().toISOString();
    const category = (id: string, slug: string) => ({
      id,
      slug,
      nameEn: slug,
      nameZh: slug,
      description: "",
      sortOrder: 0,
      createdAt: now,
      updatedAt: now,
    });
    try {
      const saved = await transactionIfOk(database.db, async (trx) => {
        await trx.insertInto("categories").values(category("c1", "one")).execute();
        return { ok: true as const };
      });
      expect(saved).toEqual({ ok: true });
      const refused = await transactionIfOk(database.db, async (trx) => {
        await trx.insertInto("categories").values(category("c2", "two")).execute();
        try {
          await trx.insertInto("categories").values(category("c3", "one")).execute();
        } catch {
          return { ok: false as const, reason: "slugTaken" };
        }
        return { ok: true as const };
      });
      expect(refused).toEqual({ ok: false, reason: "slugTaken" });
      const slugs = (await database.db.selectFrom("categories").select("slug").execute()).map((r) => r.slug);
      expect(slugs).toEqual(["one"]);
    } finally {
      await database.cleanup();
    }
  });
});

describe("withStatementCache", () => {
  /** An in-memory database whose prepare() calls are counted. */
  function countingDatabase() {
    const raw = new SQLite(":memory:");
    const counted = { prepared: 0 };
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => {
      counted.prepared++;
      return prepare(text);
    }) as typeof raw.prepare;
    return { raw, counted };
  }

  it("prepares each SQL text once and gives the same answers on reuse", async () => {
    const { raw, counted } = countingDatabase();
    const db = new Kysely<{ t: { n: number } }>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
    try {
      await sql`create table t (n integer)`.execute(db);
      for (const n of [1, 2, 3]) await db.insertInto("t").values({ n }).execute();
      const read = (min: number) => db.selectFrom("t").select("n").where("n", ">=", min).orderBy("n").execute();
      expect(await read(2)).toEqual([{ n: 2 }, { n: 3 }]);
      expect(await read(1)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      // create, insert, select: three texts however often they ran.
      expect(counted.prepared).toBe(3);
    } finally {
      await db.destroy();
    }
  });

  it("keeps at most `max` texts, dropping the oldest first", () => {
    const { raw, counted } = countingDatabase();
    const cached = withStatementCache(raw, 2);
    try {
      cached.prepare("select 1");
      cached.prepare("select 2");
      cached.prepare("select 3"); // "select 1" goes
      cached.prepare("select 2");
      expect(counted.prepared).toBe(3);
      cached.prepare("select 1");
      expect(counted.prepared).toBe(4);
    } finally {
      cached.close();
    }
  });

  it("never hands out a statement that is still being iterated", () => {
    const { raw } = countingDatabase();
    const cached = withStatementCache(raw);
    try {
      const first = cached.prepare("select 1 as one union all select 2");
      const rows = first.iterate([]);
      rows.next();
      const second = cached.prepare("select 1 as one union all select 2");
      expect(second).not.toBe(first);
      expect(second.all([])).toEqual([{ one: 1 }, { one: 2 }]);
      rows.return?.();
      expect(cached.prepare("select 1 as one union all select 2")).toBe(first);
    } finally {
      cached.close();
    }
  });
});

describe("SQLite transactions", () => {
  it("take the write lock when they begin, so another process cannot slip a write in after their first read", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inkwell-immediate-"));
    const file = path.join(dir, "db.sqlite");
    const opened = openDatabase({ dialect: "sqlite", file });
    // Another process, as the CLI importing beside the server: it does not wait.
    const other = new SQLite(file, { timeout: 0 });
    try {
      await sql`create table t (n integer)`.execute(opened.db);
      const outcome = await opened.db.transaction().execute(async (trx) => {
        await sql`select count(*) as n from t`.execute(trx);
        let otherWrite = "written";
        try {
          other.prepare("insert into t (n) values (1)").run();
        } catch (error) {
          otherWrite = (error as { code?: string }).code ?? "failed";
        }
        // With a deferred `begin` the other write lands and this one fails with SQLITE_BUSY.
        await sql`insert into t (n) values (2)`.execute(trx);
        return otherWrite;
      });
      expect(outcome).toBe("SQLITE_BUSY");
      expect(other.prepare("select n from t").all()).toEqual([{ n: 2 }]);
    } finally {
      other.close();
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
