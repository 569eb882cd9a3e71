import { sql } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { nowIso } from "./db.server.ts";
import { refreshStatistics, STATISTICS_LEASE, staleTables, startStatisticsRefresh } from "./statistics.server.ts";

describe(`planner statistics (${testDialect()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  // Each dialect registers only the tests that apply to it (none is skipped).
  if (testDialect() === "sqlite") {
    it("has nothing to do on SQLite", async () => {
      expect(await staleTables(database)).toEqual([]);
      expect(await refreshStatistics(database)).toEqual([]);
      expect(startStatisticsRefresh(database, pino({ level: "silent" }))).toBeNull();
    });
    return;
  }

  it("analyses the tables never analysed, then only those much changed", async () => {
    // A freshly migrated database: no table has statistics yet.
    const before = await staleTables(database);
    expect(before).toEqual(expect.arrayContaining(["posts", "postTranslations", "jobLeases"]));
    expect(await refreshStatistics(database)).toEqual(before);
    expect(await staleTables(database)).toEqual([]);

    // 120 new rows in one table (over 50 + 10 % of none): that table, and only it, is stale.
    await database.db.connection().execute(async (conn) => {
      const at = nowIso();
      await conn
        .insertInto("jobLeases")
        .values(
          Array.from({ length: 120 }, (_, i) => ({ name: `job-${i}`, holder: "h", expiresAt: at, updatedAt: at })),
        )
        .execute();
      // This session's counts reach the shared statistics at its next statement.
      await sql`select pg_stat_force_next_flush()`.execute(conn);
      await sql`select 1`.execute(conn);
    });
    expect(await staleTables(database)).toEqual(["jobLeases"]);
    expect(await refreshStatistics(database)).toEqual(["jobLeases"]);
    const analysed = await sql<{ n: string }>`
      select reltuples::bigint::text as n from pg_class where relname = 'jobLeases'`.execute(database.db);
    expect(analysed.rows[0]?.n).toBe("120");
  });

  it("runs at start on the lease holder", async () => {
    // A table created now has never been analysed.
    await sql`create table "freshTable" (id integer)`.execute(database.db);
    expect(await staleTables(database)).toEqual(["freshTable"]);
    const job = startStatisticsRefresh(database, pino({ level: "silent" }), { holder: "stats-test" });
    await job?.idle();
    await job?.stop();
    expect(await staleTables(database)).not.toContain("freshTable");
    const lease = await database.db
      .selectFrom("jobLeases")
      .select("name")
      .where("name", "=", STATISTICS_LEASE)
      .executeTakeFirst();
    expect(lease?.name).toBe(STATISTICS_LEASE);
  });
});
