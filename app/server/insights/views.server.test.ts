import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { createPost } from "../posts/posts.server.ts";
import {
  createViewCounter,
  MAX_VIEWERS_PER_ADDRESS,
  VIEW_FLUSH_INTERVAL_MS,
  type ViewCounter,
  writeViewIncrements,
} from "./views.server.ts";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const OTHER_BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

const counters: ViewCounter[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const c of counters.splice(0)) await c.stop();
});

/** A counter whose writes are recorded instead of reaching a database. */
function recordingCounter(options: { now?: () => Date; maxKeys?: number; fail?: () => boolean } = {}) {
  const writes: Array<Record<string, number>> = [];
  const counter = createViewCounter(null, {
    ...options,
    write: async (increments) => {
      if (options.fail?.()) throw new Error("database down");
      writes.push(Object.fromEntries(increments));
    },
  });
  counters.push(counter);
  return { counter, writes };
}

describe("view counter", () => {
  it("counts a visitor once per post per UTC day", async () => {
    let now = new Date("2026-11-22T10:00:00.000Z");
    const { counter, writes } = recordingCounter({ now: () => now });
    const alice = { ip: "203.0.113.7", userAgent: BROWSER };
    expect(counter.record("p1", alice)).toBe(true);
    expect(counter.record("p1", alice)).toBe(false);
    expect(counter.record("p2", alice)).toBe(true);
    // Another browser at the same address, and another address, are other visitors.
    expect(counter.record("p1", { ip: "203.0.113.7", userAgent: OTHER_BROWSER })).toBe(true);
    expect(counter.record("p1", { ip: "198.51.100.1", userAgent: BROWSER })).toBe(true);
    now = new Date("2026-11-22T23:59:59.000Z");
    expect(counter.record("p1", alice)).toBe(false);
    now = new Date("2026-11-23T00:00:01.000Z");
    expect(counter.record("p1", alice)).toBe(true);
    expect(counter.pending("p1")).toBe(4);
    await counter.flush();
    expect(writes).toEqual([{ p1: 4, p2: 1 }]);
    expect(counter.pending("p1")).toBe(0);
  });

  it("counts one address as a few visitors of a post a day, however many browsers it names (issue 45)", async () => {
    let now = new Date("2026-11-22T10:00:00.000Z");
    const { counter, writes } = recordingCounter({ now: () => now });
    const ip = "203.0.113.50";
    const agent = (i: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:${i}.0) Gecko/20100101 Firefox/${i}.0`;
    let counted = 0;
    for (let i = 0; i < 300; i++) if (counter.record("p1", { ip, userAgent: agent(i) })) counted += 1;
    expect(counted).toBe(MAX_VIEWERS_PER_ADDRESS);
    // Other posts, and other addresses, have their own allowance; the next day starts afresh.
    expect(counter.record("p2", { ip, userAgent: agent(0) })).toBe(true);
    expect(counter.record("p1", { ip: "203.0.113.51", userAgent: agent(299) })).toBe(true);
    now = new Date("2026-11-23T00:00:01.000Z");
    expect(counter.record("p1", { ip, userAgent: agent(299) })).toBe(true);
    await counter.flush();
    expect(writes).toEqual([{ p1: MAX_VIEWERS_PER_ADDRESS + 2, p2: 1 }]);
  });

  it("skips bots and requests without a browser", async () => {
    const { counter, writes } = recordingCounter();
    const ip = "203.0.113.9";
    expect(
      counter.record("p1", {
        ip,
        userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      }),
    ).toBe(false);
    expect(counter.record("p1", { ip, userAgent: "curl/8.11.0" })).toBe(false);
    expect(counter.record("p1", { ip, userAgent: "" })).toBe(false);
    expect(counter.record("p1", { ip, userAgent: null })).toBe(false);
    await counter.flush();
    expect(writes).toEqual([]);
  });

  it("forgets the oldest visitors when its memory is full", () => {
    const { counter } = recordingCounter({ maxKeys: 2 });
    const v = (n: number) => ({ ip: `192.0.2.${n}`, userAgent: BROWSER });
    expect(counter.record("p", v(1))).toBe(true);
    expect(counter.record("p", v(2))).toBe(true);
    expect(counter.record("p", v(3))).toBe(true); // v(1) is forgotten
    expect(counter.record("p", v(3))).toBe(false);
    expect(counter.record("p", v(1))).toBe(true);
  });

  it("writes accumulated views in one batch every few seconds, never while recording", async () => {
    vi.useFakeTimers();
    const { counter, writes } = recordingCounter();
    for (let i = 0; i < 5; i++) counter.record("p1", { ip: `192.0.2.${i}`, userAgent: BROWSER });
    counter.record("p2", { ip: "192.0.2.1", userAgent: BROWSER });
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(VIEW_FLUSH_INTERVAL_MS);
    expect(writes).toEqual([{ p1: 5, p2: 1 }]);
    // Nothing new: no write.
    await vi.advanceTimersByTimeAsync(VIEW_FLUSH_INTERVAL_MS * 3);
    expect(writes).toHaveLength(1);
  });

  it("keeps the views of a failed write for the next one", async () => {
    let down = true;
    const { counter, writes } = recordingCounter({ fail: () => down });
    counter.record("p1", { ip: "192.0.2.1", userAgent: BROWSER });
    await counter.flush();
    expect(writes).toEqual([]);
    expect(counter.pending("p1")).toBe(1);
    counter.record("p1", { ip: "192.0.2.2", userAgent: BROWSER });
    down = false;
    await counter.flush();
    expect(writes).toEqual([{ p1: 2 }]);
  });

  it("writes what is left when stopped, and counts nothing after", async () => {
    const { counter, writes } = recordingCounter();
    counter.record("p1", { ip: "192.0.2.1", userAgent: BROWSER });
    counter.record("p1", { ip: "192.0.2.2", userAgent: BROWSER });
    await counter.stop();
    expect(writes).toEqual([{ p1: 2 }]);
    expect(counter.record("p1", { ip: "192.0.2.3", userAgent: BROWSER })).toBe(false);
    await counter.flush();
    expect(writes).toHaveLength(1);
  });

  it("adds to posts.viewCount without touching updatedAt or version", async () => {
    const { db } = database;
    const a = await createPost(db, {
      slug: "views-a",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "A" }],
    });
    const b = await createPost(db, {
      slug: "views-b",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-02T00:00:00.000Z",
      translations: [{ locale: "en", title: "B" }],
    });
    const before = await db.selectFrom("posts").select(["id", "updatedAt", "version"]).orderBy("slug").execute();
    await writeViewIncrements(db, new Map([[a, 3]]));
    await writeViewIncrements(
      db,
      new Map([
        [a, 2],
        [b, 7],
        ["missing", 1],
      ]),
    );
    const after = await db
      .selectFrom("posts")
      .select(["id", "viewCount", "updatedAt", "version"])
      .orderBy("slug")
      .execute();
    expect(after.map((r) => Number(r.viewCount))).toEqual([5, 7]);
    expect(after.map((r) => ({ id: r.id, updatedAt: r.updatedAt, version: r.version }))).toEqual(before);
  });

  it("reaches the database through the default writer on stop", async () => {
    const { db } = database;
    const id = await createPost(db, {
      slug: "views-c",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-03T00:00:00.000Z",
      translations: [{ locale: "en", title: "C" }],
    });
    const counter = createViewCounter(db);
    counter.record(id, { ip: "192.0.2.1", userAgent: BROWSER });
    counter.record(id, { ip: "192.0.2.1", userAgent: BROWSER });
    counter.record(id, { ip: "192.0.2.2", userAgent: BROWSER });
    await counter.stop();
    const row = await db.selectFrom("posts").select("viewCount").where("id", "=", id).executeTakeFirstOrThrow();
    expect(Number(row.viewCount)).toBe(2);
  });
});
