import { Temporal } from "@js-temporal/polyfill";
import { InsertQueryNode, ValuesNode } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { sharedStoreBackends } from "../../../tests/setup/test-redis.ts";
import { bulkCollector } from "../platform/bulk-gc.server.ts";
import { backoffDelay, DatabaseMessageQueue, type QueueOptions } from "./queue.server.ts";
import { RedisMessageQueue } from "./redis-store.server.ts";

const log = pino({ level: "silent" });
const seconds = (s: number) => Temporal.Duration.from({ seconds: s }) as unknown as globalThis.Temporal.Duration;

describe("backoffDelay", () => {
  it("doubles from the base and stops at the cap", () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });
});

/** One queue's storage, opened afresh for a test: queues made from it share their messages. */
interface QueueBackend {
  queue(opts?: Partial<QueueOptions>): DatabaseMessageQueue | RedisMessageQueue;
  /** The messages given up after their last attempt. */
  failed(): Promise<Array<{ attempts: number; lastError: string | null }>>;
}

let now = new Date("2026-11-27T00:00:00.000Z");
const clock = () => now;
let redisTest = 0;

// The same behaviour from every queue; Redis where TEST_REDIS_URL is set (.ci/run). Each
// test gets an empty queue: the database's table is emptied, Redis gets a new key prefix.
const backends = sharedStoreBackends<() => Promise<QueueBackend>>({
  database: (db) => async () => {
    await db.deleteFrom("federationQueue").execute();
    return {
      queue: (opts) => new DatabaseMessageQueue(db, { log, now: clock, ...opts }),
      failed: () => db.selectFrom("federationQueue").select(["attempts", "lastError"]).execute(),
    };
  },
  redis: (client, prefix) => async () => {
    const site = `${prefix}q${++redisTest}:`;
    const first = new RedisMessageQueue(client, site, { log, now: clock });
    return {
      queue: (opts) => new RedisMessageQueue(client, site, { log, now: clock, ...opts }),
      failed: async () => (await first.failed()).map(({ attempts, lastError }) => ({ attempts, lastError })),
    };
  },
});

describe.each(backends)(`Fedify MessageQueue (%s, ${testDialect()})`, (_name, open) => {
  it("keeps messages in the store: another queue (a restarted process) handles them", async () => {
    const backend = await open()();
    const first = backend.queue();
    await first.enqueue({ n: 1 });
    await first.enqueueMany([{ n: 2 }, { n: 3 }]);
    await first.enqueue({ n: 4 }, { delay: seconds(60) });
    expect(await first.getDepth()).toEqual({ queued: 4, ready: 3, delayed: 1 });

    const restarted = backend.queue();
    const seen: unknown[] = [];
    expect(await restarted.drain((m) => void seen.push(m))).toBe(3);
    expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]));
    now = new Date(now.getTime() + 59_000);
    expect(await restarted.drain((m) => void seen.push(m))).toBe(0);
    now = new Date(now.getTime() + 2_000);
    await restarted.drain((m) => void seen.push(m));
    expect(seen).toContainEqual({ n: 4 });
    expect(await restarted.getDepth()).toMatchObject({ queued: 0 });
  });

  it("retries a failing message with exponential backoff, then keeps it as failed", async () => {
    const backend = await open()();
    const queue = backend.queue({ backoffMs: 1000, maxBackoffMs: 60_000, maxAttempts: 3 });
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
    expect(await backend.failed()).toEqual([{ attempts: 3, lastError: "remote down" }]);
    expect(await queue.getDepth()).toMatchObject({ queued: 0 });
  });

  it("hands a message that was being handled by a crashed worker out again once its lock expires", async () => {
    const backend = await open()();
    const crashed = backend.queue({ lockMs: 10_000 });
    await crashed.enqueue({ n: "crash" });
    // A worker claims it and never finishes (it died): only its lock is left.
    const taken: unknown[] = [];
    void crashed.drain((m) => {
      taken.push(m);
      return new Promise<void>(() => {});
    });
    await expect.poll(() => taken).toEqual([{ n: "crash" }]);
    const other = backend.queue({ lockMs: 10_000 });
    const seen: unknown[] = [];
    await other.drain((m) => void seen.push(m));
    expect(seen).toEqual([]);
    now = new Date(now.getTime() + 10_001);
    await other.drain((m) => void seen.push(m));
    expect(seen).toEqual([{ n: "crash" }]);
    expect(await other.getDepth()).toMatchObject({ queued: 0 });
  });

  it("gives each message to one of several consumers draining at once", async () => {
    const backend = await open()();
    const producer = backend.queue();
    await producer.enqueueMany(Array.from({ length: 40 }, (_, n) => ({ n })));
    const seen: number[] = [];
    const consumers = [backend.queue({ concurrency: 2 }), backend.queue({ concurrency: 2 }), backend.queue()];
    await Promise.all(
      consumers.map((c) =>
        c.drain(async (m) => {
          await new Promise((r) => setImmediate(r));
          seen.push((m as { n: number }).n);
        }),
      ),
    );
    expect(seen.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it("listens until its signal aborts, woken by a new message", async () => {
    const backend = await open()();
    // A long poll: only the wake-up from enqueue can deliver the second message in time.
    const queue = backend.queue({ pollMs: 60_000 });
    const seen: unknown[] = [];
    const abort = new AbortController();
    const listening = queue.listen((m) => void seen.push(m), { signal: abort.signal });
    await queue.enqueue({ n: "first" });
    await expect.poll(() => seen).toEqual([{ n: "first" }]);
    await queue.enqueue({ n: "second" });
    await expect.poll(() => seen).toEqual([{ n: "first" }, { n: "second" }]);
    abort.abort();
    await listening;
    await queue.enqueue({ n: "after" });
    expect(await queue.getDepth()).toMatchObject({ queued: 1 });
  });

  it("runs messages with one ordering key one after another, in order", async () => {
    const backend = await open()();
    const queue = backend.queue();
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

  it("offers a garbage collection after each batch of a long drain", async () => {
    const backend = await open()();
    let clock = 0;
    let collections = 0;
    // Each batch takes the interval, so every batch is followed by a collection.
    const queue = backend.queue({
      concurrency: 1,
      collector: () => bulkCollector({ everyMs: 10, now: () => (clock += 10), collect: () => void collections++ }),
    });
    // One consumer claims four messages at a time: nine messages are three batches.
    await queue.enqueueMany(Array.from({ length: 9 }, (_, n) => ({ n })));
    const seen: unknown[] = [];
    expect(await queue.drain((m) => void seen.push(m))).toBe(9);
    expect(seen).toHaveLength(9);
    expect(collections).toBe(3);
  });
});

// The database queue has one consumer (the lease holder); in Redis every instance consumes.
describe.each(backends.filter(([name]) => name === "redis"))(
  "Fedify MessageQueue (%s, several consumers)",
  (_name, open) => {
    it("keeps an ordering key in order across consumers and a crash", async () => {
      const backend = await open()();
      const producer = backend.queue({ lockMs: 10_000 });
      await producer.enqueue({ n: 1 }, { orderingKey: "post-2" });
      // A consumer takes message 1 and dies; 2 and 3 come after.
      let taken = false;
      void backend.queue({ lockMs: 10_000 }).drain(() => {
        taken = true;
        return new Promise<void>(() => {});
      });
      await expect.poll(() => taken).toBe(true);
      for (const n of [2, 3]) await producer.enqueue({ n }, { orderingKey: "post-2" });
      await producer.enqueue({ other: true }, { orderingKey: "post-3" });
      const order: unknown[] = [];
      const consumers = [backend.queue({ lockMs: 10_000 }), backend.queue({ lockMs: 10_000 })];
      const push = async (m: unknown) => {
        await new Promise((r) => setImmediate(r));
        order.push(m);
      };
      // While 1 is held, its key waits; other keys go on.
      await Promise.all(consumers.map((c) => c.drain(push)));
      expect(order).toEqual([{ other: true }]);
      now = new Date(now.getTime() + 10_001);
      await Promise.all(consumers.map((c) => c.drain(push)));
      expect(order).toEqual([{ other: true }, { n: 1 }, { n: 2 }, { n: 3 }]);
    });
  },
);

// The database queue's batching of single enqueues and its cap on handlers at once.
describe(`DatabaseMessageQueue batching (${testDialect()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });
  beforeEach(async () => {
    await database.db.deleteFrom("federationQueue").execute();
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
