import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { transactionIfOk } from "./db.server.ts";
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
