import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/setup/test-db.ts";
import { hit, hitAll } from "./rate-limit.server.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("rate limits", () => {
  it("allows up to max hits in a window, then refuses with a retry time", async () => {
    const limit = { max: 3, windowMs: 60_000 };
    const t = 1_800_000_000_000;
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await hit(database.db, "k1", limit, t + i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[4]?.count).toBe(5);
    expect(results[4]?.retryAfterSeconds).toBe(60);
  });

  it("starts a new window after the old one ends", async () => {
    const limit = { max: 1, windowMs: 1000 };
    const t = 1_800_000_000_000;
    expect((await hit(database.db, "k2", limit, t)).allowed).toBe(true);
    expect((await hit(database.db, "k2", limit, t + 500)).allowed).toBe(false);
    expect((await hit(database.db, "k2", limit, t + 1000)).allowed).toBe(true);
  });

  it("counts concurrent hits exactly", async () => {
    const limit = { max: 1000, windowMs: 60_000 };
    const t = 1_800_000_000_000;
    await Promise.all(Array.from({ length: 25 }, () => hit(database.db, "k3", limit, t)));
    expect((await hit(database.db, "k3", limit, t)).count).toBe(26);
  });

  it("refuses when any of several keys is over its limit", async () => {
    const t = 1_800_000_000_000;
    const tight = { max: 1, windowMs: 60_000 };
    const loose = { max: 100, windowMs: 60_000 };
    await hitAll(
      database.db,
      [
        { key: "ip:a", limit: loose },
        { key: "acct:x", limit: tight },
      ],
      t,
    );
    const second = await hitAll(
      database.db,
      [
        { key: "ip:b", limit: loose },
        { key: "acct:x", limit: tight },
      ],
      t,
    );
    expect(second.allowed).toBe(false);
  });
});
