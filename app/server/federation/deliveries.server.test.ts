import type { MessageQueue } from "@fedify/fedify";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { DeliveryLog, deliveriesPage, describeFailure } from "./deliveries.server.ts";

// The delivery log's wrapper around the queue: outcomes from Fedify's error callback,
// dead servers, pruning, and the admin's page.

const DAY = 24 * 60 * 60 * 1000;

/** A queue that hands every enqueued message to the listener at once. */
function directQueue(): MessageQueue & { push(message: unknown): Promise<void> } {
  let handler: ((message: unknown) => Promise<void> | void) | null = null;
  return {
    enqueue: async () => {},
    listen: async (h) => {
      handler = h;
    },
    push: async (message) => {
      await handler?.(message);
    },
  };
}

const outbox = (attempt = 0, inbox = "https://social.example/inbox") => ({
  type: "outbox",
  inbox,
  activityId: "https://blog.example/ap/articles/en/p1#create",
  activityType: "https://www.w3.org/ns/activitystreams#Create",
  attempt,
});

class Failure extends Error {
  readonly statusCode: number;
  constructor(statusCode: number) {
    super(`failed (${statusCode})`);
    this.statusCode = statusCode;
  }
}

describe(`DeliveryLog (${testDialect()})`, () => {
  let database: TestDatabase;
  let now = Date.parse("2026-11-27T00:00:00.000Z");
  let log: DeliveryLog;
  let queue: ReturnType<typeof directQueue>;
  /** What the next handled message does: deliver, or fail with this status. */
  let next: number | null = null;
  let handled = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    log = new DeliveryLog({
      db: database.db,
      log: pino({ level: "silent" }),
      maxAttempts: 10,
      permanentStatuses: [404, 410],
      now: () => now,
    });
    queue = directQueue();
    await log.wrap(queue).listen(async () => {
      handled++;
      if (next !== null) log.onOutboxError(new Failure(next));
    });
  });
  afterAll(async () => {
    await database.cleanup();
  });
  beforeEach(async () => {
    await database.db.deleteFrom("federationDeliveries").execute();
    await database.db.deleteFrom("federationServers").execute();
    next = null;
    handled = 0;
  });

  const rows = () =>
    database.db
      .selectFrom("federationDeliveries")
      .select(["outcome", "status", "attempt", "activityType", "server"])
      .orderBy("createdAt")
      .orderBy("id")
      .execute();

  it("logs a delivery, a failure to retry, a permanent failure and the last attempt", async () => {
    await queue.push(outbox());
    next = 503;
    now += 1000;
    await queue.push(outbox(1));
    next = 410;
    now += 1000;
    await queue.push(outbox(2));
    next = 500;
    now += 1000;
    await queue.push(outbox(9));
    expect(
      (await rows()).map((r) => [r.outcome, r.status === null ? null : Number(r.status), Number(r.attempt)]),
    ).toEqual([
      ["sent", null, 0],
      ["retrying", 503, 1],
      ["gave-up", 410, 2],
      ["gave-up", 500, 9],
    ]);
    expect((await rows())[0]).toMatchObject({ activityType: "Create", server: "social.example" });
  });

  it("passes other messages through without a row", async () => {
    await queue.push({ type: "fanout", activityType: "Create" });
    expect(handled).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it("gives a server up after three days of failures, skips it, and resumes when heard from", async () => {
    next = 503;
    await queue.push(outbox());
    now += 2 * DAY;
    await queue.push(outbox(1));
    expect(await log.isDead("social.example")).toBe(false);
    now += DAY;
    await queue.push(outbox(2));
    expect(await log.isDead("social.example")).toBe(true);
    // Dead: not handed to Fedify at all, logged as skipped. (Each row a second later: rows sort by time.)
    const before = handled;
    now += 1000;
    await queue.push(outbox(0));
    expect(handled).toBe(before);
    expect((await rows()).at(-1)).toMatchObject({ outcome: "skipped" });
    // Another server is not affected.
    next = null;
    now += 1000;
    await queue.push(outbox(0, "https://other.example/inbox"));
    expect((await rows()).at(-1)).toMatchObject({ outcome: "sent", server: "other.example" });
    await log.heardFrom("social.example");
    expect(await log.isDead("social.example")).toBe(false);
    now += 1000;
    await queue.push(outbox());
    expect((await rows()).at(-1)).toMatchObject({ outcome: "sent", server: "social.example" });
  });

  it("forgets a server's failures once a delivery succeeds", async () => {
    next = 503;
    await queue.push(outbox());
    next = null;
    now += 2 * DAY;
    await queue.push(outbox(1));
    next = 503;
    now += 2 * DAY;
    await queue.push(outbox());
    // Failing for a moment only, not three days: alive.
    expect(await log.isDead("social.example")).toBe(false);
  });

  it("prunes rows past 30 days and beyond the cap, newest kept", async () => {
    const start = now;
    for (let i = 0; i < 6; i++) {
      now = start + i * DAY;
      await queue.push(outbox(i));
    }
    now = start + 33 * DAY;
    await log.prune(100);
    // Days 0–2 are past 30 days old.
    expect((await rows()).map((r) => Number(r.attempt))).toEqual([3, 4, 5]);
    await log.prune(2);
    expect((await rows()).map((r) => Number(r.attempt))).toEqual([4, 5]);
  });

  it("pages the log newest first, all or failures only", async () => {
    for (let i = 0; i < 5; i++) {
      next = i % 2 === 0 ? null : 503;
      now += 1000;
      await queue.push(outbox(i));
    }
    const all = await deliveriesPage(database.db, { filter: "all", page: 1, pageSize: 2 });
    expect(all.total).toBe(5);
    expect(all.pageCount).toBe(3);
    expect(all.items.map((r) => r.attempt)).toEqual([4, 3]);
    const failures = await deliveriesPage(database.db, { filter: "failures", page: 9, pageSize: 10 });
    expect(failures.page).toBe(1);
    expect(failures.items.map((r) => [r.attempt, r.status])).toEqual([
      [3, 503],
      [1, 503],
    ]);
  });

  it("describes failures with and without a status", () => {
    expect(describeFailure(new Failure(429))).toEqual({ status: 429, error: "failed (429)" });
    expect(describeFailure(new Error("ECONNREFUSED"))).toEqual({ status: null, error: "ECONNREFUSED" });
    expect(describeFailure("x".repeat(600)).error).toHaveLength(500);
  });
});
