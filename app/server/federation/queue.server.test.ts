import { Temporal } from "@js-temporal/polyfill";
import { InsertQueryNode, ValuesNode } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { backoffDelay, DatabaseMessageQueue } from "./queue.server.ts";

const log = pino({ level: "silent" });
const seconds = (s: number) => Temporal.Duration.from({ seconds: s }) as unknown as globalThis.Temporal.Duration;

describe("backoffDelay", () => {
  it("doubles from the base and stops at the cap", () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });
});

describe(`DatabaseMessageQueue (${testDialect()})`, () => {
  let database: TestDatabase;
  let now = new Date("2026-11-27T00:00:00.000Z");
  const clock = () => now;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("keeps messages in the database: another queue (a restarted process) handles them", async () => {
    const first = new DatabaseMessageQueue(database.db, { log, now: clock });
    await first.enqueue({ n: 1 });
    await first.enqueueMany([{ n: 2 }, { n: 3 }]);
    await first.enqueue({ n: 4 }, { delay: seconds(60) });
    expect(await first.getDepth()).toEqual({ queued: 4, ready: 3, delayed: 1 });

    const restarted = new DatabaseMessageQueue(database.db, { log, now: clock });
    const seen: unknown[] = [];
    expect(await restarted.drain((m) => void seen.push(m))).toBe(3);
    expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]));
    now = new Date(now.getTime() + 61_000);
    await restarted.drain((m) => void seen.push(m));
    expect(seen).toContainEqual({ n: 4 });
    expect(await restarted.getDepth()).toMatchObject({ queued: 0 });
  });

  it("retries a failing message with exponential backoff, then keeps it as failed", async () => {
    const queue = new DatabaseMessageQueue(database.db, {
      log,
      now: clock,
      backoffMs: 1000,
      maxBackoffMs: 60_000,
      maxAttempts: 3,
    });
    await queue.enqueue({ fail: true });
    let calls = 0;
    const failing = () => {
      calls++;
      throw new Error("remote down");
    };
    await queue.drain(failing);
    expect(calls).toBe(1);
    // Not due again before its backoff.
    now = new Date(now.getTime() + 900);
    await queue.drain(failing);
    expect(calls).toBe(1);
    now = new Date(now.getTime() + 200);
    await queue.drain(failing);
    expect(calls).toBe(2);
    now = new Date(now.getTime() + 1900);
    await queue.drain(failing);
    expect(calls).toBe(2);
    now = new Date(now.getTime() + 200);
    await queue.drain(failing);
    expect(calls).toBe(3);
    now = new Date(now.getTime() + 3_600_000);
    await queue.drain(failing);
    expect(calls).toBe(3);
    const row = await database.db.selectFrom("federationQueue").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 3, lastError: "remote down" });
    await database.db.deleteFrom("federationQueue").execute();
  });

  it("hands a message that was being handled by a crashed worker out again once its lock expires", async () => {
    const queue = new DatabaseMessageQueue(database.db, { log, now: clock, lockMs: 10_000 });
    await queue.enqueue({ n: "crash" });
    // A worker claimed it and died before finishing: the lock is all that is left.
    await database.db
      .updateTable("federationQueue")
      .set({ lockedUntil: new Date(now.getTime() + 10_000).toISOString() })
      .execute();
    const seen: unknown[] = [];
    await queue.drain((m) => void seen.push(m));
    expect(seen).toEqual([]);
    now = new Date(now.getTime() + 10_001);
    await queue.drain((m) => void seen.push(m));
    expect(seen).toEqual([{ n: "crash" }]);
  });

  it("runs messages with one ordering key one after another, in order", async () => {
    const queue = new DatabaseMessageQueue(database.db, { log, now: clock });
    for (const n of [1, 2, 3]) await queue.enqueue({ n }, { orderingKey: "post-1" });
    let active = 0;
    let maxActive = 0;
    const order: number[] = [];
    await queue.drain(async (m) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setImmediate(r));
      order.push((m as { n: number }).n);
      active--;
    });
    expect(maxActive).toBe(1);
    expect(order).toEqual([1, 2, 3]);
  });

  it("stores a burst of single enqueues (Fedify's per-inbox calls) in a few statements, each resolving once stored", async () => {
    const queue = new DatabaseMessageQueue(database.db, { log, now: clock });
    const inserts: number[] = [];
    // Counts the INSERTs into the queue while the burst is written.
    const counting = database.db.withPlugin({
      transformQuery: (args) => {
        const { node } = args;
        if (InsertQueryNode.is(node))
          inserts.push(node.values && ValuesNode.is(node.values) ? node.values.values.length : 0);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const burst = new DatabaseMessageQueue(counting, { log, now: clock });
    const calls = Array.from({ length: 250 }, (_, n) =>
      burst.enqueue({ n, body: "x".repeat(100) }, { orderingKey: `post-2\nhttps://s${n % 5}.example` }),
    );
    await Promise.all(calls);
    expect(inserts).toEqual([100, 100, 50]);
    const rows = await database.db
      .selectFrom("federationQueue")
      .select(["message", "orderingKey"])
      .orderBy("id")
      .execute();
    expect(rows).toHaveLength(250);
    expect(rows.map((r) => (JSON.parse(r.message) as { n: number }).n)).toEqual(
      Array.from({ length: 250 }, (_, n) => n),
    );
    expect(rows[7]?.orderingKey).toBe("post-2\nhttps://s2.example");
    await queue.drain(() => undefined);
  });

  it("rejects the enqueues whose statement failed, and only those", async () => {
    let failNext = true;
    const flaky = database.db.withPlugin({
      transformQuery: (args) => {
        if (InsertQueryNode.is(args.node) && failNext) {
          failNext = false;
          throw new Error("disk full");
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const queue = new DatabaseMessageQueue(flaky, { log, now: clock });
    const results = await Promise.allSettled(Array.from({ length: 150 }, (_, n) => queue.enqueue({ n })));
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(100);
    expect(results.slice(100).every((r) => r.status === "fulfilled")).toBe(true);
    const depth = await queue.getDepth();
    expect(depth.queued).toBe(50);
    await database.db.deleteFrom("federationQueue").execute();
  });

  it("handles at most `concurrency` messages at once", async () => {
    const queue = new DatabaseMessageQueue(database.db, { log, now: clock, concurrency: 3 });
    await queue.enqueueMany(Array.from({ length: 20 }, (_, n) => ({ n })));
    let active = 0;
    let maxActive = 0;
    const seen = new Set<number>();
    expect(
      await queue.drain(async (m) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setImmediate(r));
        seen.add((m as { n: number }).n);
        active--;
      }),
    ).toBe(20);
    expect(maxActive).toBe(3);
    expect(seen.size).toBe(20);
  });
});
