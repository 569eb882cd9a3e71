import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { openDatabase } from "../db/db.server.ts";
import { cachedCount, cachedPostCount, forgetPostCounts, POST_COUNTS_TTL_MS } from "./post-counts.server.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
});
afterAll(async () => {
  await database.cleanup();
});

/** A count that answers 1, 2, 3… and says how often it ran. */
function counter() {
  const state = { calls: 0 };
  return { state, count: async () => ++state.calls };
}

describe("cachedPostCount", () => {
  it("counts once per list within the time limit, again after it", async () => {
    const { db } = database;
    forgetPostCounts(db);
    const { state, count } = counter();
    const t0 = 1_000_000;
    expect(await cachedPostCount(db, "all", count, t0)).toBe(1);
    expect(await cachedPostCount(db, "all", count, t0 + POST_COUNTS_TTL_MS - 1)).toBe(1);
    expect(await cachedPostCount(db, "tag-a", count, t0)).toBe(2);
    expect(await cachedPostCount(db, "all", count, t0 + POST_COUNTS_TTL_MS)).toBe(3);
    expect(state.calls).toBe(3);
  });

  it("counts afresh after forgetPostCounts (a content change)", async () => {
    const { db } = database;
    forgetPostCounts(db);
    const { count } = counter();
    expect(await cachedPostCount(db, "all", count, 0)).toBe(1);
    forgetPostCounts(db);
    expect(await cachedPostCount(db, "all", count, 1)).toBe(2);
  });

  it("keeps a list total apart from another count of the same name, and forgets both", async () => {
    const { db } = database;
    forgetPostCounts(db);
    expect(await cachedCount(db, "categories", async () => ["footer"], 0)).toEqual(["footer"]);
    expect(await cachedPostCount(db, "categories", async () => 5, 0)).toBe(5);
    expect(await cachedCount(db, "categories", async () => ["other"], 1)).toEqual(["footer"]);
    forgetPostCounts(db);
    expect(await cachedCount(db, "categories", async () => ["after"], 2)).toEqual(["after"]);
    expect(await cachedPostCount(db, "categories", async () => 6, 2)).toBe(6);
  });

  it("does not keep a failed count", async () => {
    const { db } = database;
    forgetPostCounts(db);
    await expect(cachedPostCount(db, "all", () => Promise.reject(new Error("db away")), 0)).rejects.toThrow("db away");
    expect(await cachedPostCount(db, "all", async () => 7, 1)).toBe(7);
  });

  it("counts afresh on SQLite once another connection has committed to the file, not before", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "inkwell-counts-"));
    const server = openDatabase({ dialect: "sqlite", file: path.join(dir, "site.db") });
    const other = openDatabase({ dialect: "sqlite", file: path.join(dir, "site.db") });
    try {
      await sql`create table "t" ("n" integer)`.execute(server.db);
      const { state, count } = counter();
      expect(await cachedPostCount(server.db, "all", count, 0)).toBe(1);
      // The server's own writes do not drop the counts (its content writes call forgetPostCounts).
      await sql`insert into "t" values (1)`.execute(server.db);
      expect(await cachedPostCount(server.db, "all", count, 1)).toBe(1);
      // A row written by another process (a CLI command, a test) is counted at the next request.
      await sql`insert into "t" values (2)`.execute(other.db);
      expect(await cachedPostCount(server.db, "all", count, 2)).toBe(2);
      expect(await cachedPostCount(server.db, "all", count, 3)).toBe(2);
      expect(state.calls).toBe(2);

      // Counts asked for together (a page's loaders) share one read of the write stamp;
      // the next ask reads it again and sees a commit made in between.
      let stampReads = 0;
      const executeQuery = server.db.executeQuery.bind(server.db);
      server.db.executeQuery = ((query: Parameters<typeof executeQuery>[0]) => {
        if ("sql" in query && query.sql === "pragma data_version") stampReads++;
        return executeQuery(query);
      }) as typeof server.db.executeQuery;
      const together = await Promise.all([
        cachedPostCount(server.db, "all", count, 4),
        cachedCount(server.db, "ads", async () => "rows", 4),
        cachedPostCount(server.db, "tag", count, 4),
      ]);
      expect(together).toEqual([2, "rows", 3]);
      expect(stampReads).toBe(1);
      await sql`insert into "t" values (3)`.execute(other.db);
      expect(await cachedPostCount(server.db, "all", count, 5)).toBe(4);
      expect(stampReads).toBe(2);
    } finally {
      await other.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
