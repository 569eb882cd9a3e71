import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { bulkCollector } from "../platform/bulk-gc.server.ts";
import { acquireLease, leaseHolder, releaseLease, startChunkedJob, startLeasedJob } from "./lease.server.ts";

describe(`job leases (${testDialect()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("gives a lease to one holder until it expires, then to another", async () => {
    const { db } = database;
    const t0 = new Date("2026-11-23T00:00:00.000Z");
    const later = (ms: number) => new Date(t0.getTime() + ms);
    expect(await acquireLease(db, "job", "a", 3000, t0)).toBe(true);
    expect(await acquireLease(db, "job", "b", 3000, later(100))).toBe(false);
    // The holder renews; the other still waits.
    expect(await acquireLease(db, "job", "a", 3000, later(2000))).toBe(true);
    expect(await acquireLease(db, "job", "b", 3000, later(4000))).toBe(false);
    // "a" stopped renewing (crashed): once its lease ran out, "b" takes over.
    expect(await acquireLease(db, "job", "b", 3000, later(5000))).toBe(true);
    expect(await leaseHolder(db, "job")).toMatchObject({ holder: "b" });
    expect(await acquireLease(db, "job", "a", 3000, later(5100))).toBe(false);
  });

  it("lets only one of many simultaneous claimants win", async () => {
    const { db } = database;
    const now = new Date("2026-11-24T00:00:00.000Z");
    const results = await Promise.all(
      ["x1", "x2", "x3", "x4", "x5"].map((holder) => acquireLease(db, "race", holder, 10_000, now)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("is free for others at once after a release", async () => {
    const { db } = database;
    expect(await acquireLease(db, "released", "a", 60_000)).toBe(true);
    expect(await acquireLease(db, "released", "b", 60_000)).toBe(false);
    await releaseLease(db, "released", "a");
    expect(await acquireLease(db, "released", "b", 60_000)).toBe(true);
  });

  it("runs a leased job on one holder only, and on another once the first stops", async () => {
    const { db } = database;
    const log = pino({ level: "silent" });
    const runs = { a: 0, b: 0 };
    const a = startLeasedJob(db, log, { name: "both", holder: "a", intervalMs: 20, run: async () => void runs.a++ });
    await a.idle();
    const b = startLeasedJob(db, log, { name: "both", holder: "b", intervalMs: 20, run: async () => void runs.b++ });
    await vi.waitFor(() => expect(runs.a).toBeGreaterThanOrEqual(3));
    expect(runs.b).toBe(0);
    await a.stop();
    const stoppedAt = runs.a;
    await vi.waitFor(() => expect(runs.b).toBeGreaterThanOrEqual(1));
    await b.stop();
    expect(runs.a).toBe(stoppedAt);
  });

  it("waits for its first run when asked, unless poked", async () => {
    const { db } = database;
    const log = pino({ level: "silent" });
    let runs = 0;
    const job = startLeasedJob(db, log, {
      name: "later",
      holder: "a",
      intervalMs: 20,
      firstRunAfterMs: 60_000,
      run: async () => void runs++,
    });
    // Several intervals pass: nothing runs before the first-run delay.
    await new Promise((r) => setTimeout(r, 100));
    await job.idle();
    expect(runs).toBe(0);
    // A poke (a content change) runs it now.
    job.poke();
    await vi.waitFor(() => expect(runs).toBe(1));
    await job.stop();
  });

  it("keeps running after a failed run", async () => {
    const { db } = database;
    const errors: unknown[] = [];
    const log = pino({ level: "error" }, { write: (line: string) => void errors.push(JSON.parse(line)) });
    let calls = 0;
    const job = startLeasedJob(db, log, {
      name: "flaky",
      holder: "a",
      intervalMs: 20,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error("first run fails");
      },
    });
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(2));
    await job.stop();
    expect(errors).toEqual([expect.objectContaining({ job: "flaky", msg: "background job failed" })]);
  });

  it("works a chunked job through its chunks until idle, and retries a failed chunk on the next run", async () => {
    const { db } = database;
    const log = pino({ level: "silent" });
    const queue = ["a", "b", "fail", "c"];
    const done: string[] = [];
    const failures: unknown[] = [];
    let failed = false;
    const job = startChunkedJob(db, log, {
      name: "chunks",
      holder: "a",
      intervalMs: 20,
      nextChunk: async () => {
        const next = queue[0];
        if (next === undefined) return "idle";
        if (next === "fail" && !failed) {
          failed = true;
          throw new Error("chunk failed");
        }
        done.push(queue.shift() as string);
        return queue.length === 0 ? "done" : "progress";
      },
      onError: async (error) => void failures.push(error),
    });
    await vi.waitFor(() => expect(done).toEqual(["a", "b", "fail", "c"]));
    await job.stop();
    expect(failures).toHaveLength(1);
  });

  it("offers a garbage collection after each chunk of a long run, not after the idle answer", async () => {
    const { db } = database;
    let left = 3;
    let clock = 0;
    let collections = 0;
    const job = startChunkedJob(db, pino({ level: "silent" }), {
      name: "collecting",
      holder: "a",
      intervalMs: 60_000,
      nextChunk: async () => {
        if (left === 0) return "idle";
        left--;
        return left === 0 ? "done" : "progress";
      },
      onError: async () => {},
      // Each chunk takes the interval, so every chunk is followed by a collection.
      collector: () => bulkCollector({ everyMs: 10, now: () => (clock += 10), collect: () => void collections++ }),
    });
    await vi.waitFor(() => expect(left).toBe(0));
    await job.idle();
    await job.stop();
    expect(collections).toBe(3);
  });

  it("stops a chunked job between chunks", async () => {
    const { db } = database;
    let chunks = 0;
    let job: ReturnType<typeof startChunkedJob> | null = null;
    let stopped: Promise<void> | null = null;
    job = startChunkedJob(db, pino({ level: "silent" }), {
      name: "endless",
      holder: "a",
      intervalMs: 20,
      nextChunk: async () => {
        chunks++;
        if (chunks === 3 && job) stopped = job.stop();
        return "progress";
      },
      onError: async () => {},
    });
    await vi.waitFor(() => expect(stopped).not.toBeNull());
    await stopped;
    const at = chunks;
    await new Promise((r) => setTimeout(r, 100));
    expect(chunks).toBe(at);
    expect(at).toBeLessThanOrEqual(4);
  });
});
