import type { KvStore } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { beforeAll, describe, expect, it } from "vitest";
import { testDialect } from "../../../tests/setup/test-db.ts";
import { sharedStoreBackends } from "../../../tests/setup/test-redis.ts";
import { DatabaseKvStore } from "./kv.server.ts";
import { RedisKvStore } from "./redis-store.server.ts";

// Fedify's Temporal type is the standard one; the polyfill's Duration behaves the same.
const ttl = (seconds: number) => Temporal.Duration.from({ seconds }) as unknown as globalThis.Temporal.Duration;

let now = new Date("2026-11-27T00:00:00.000Z");
const clock = { now: () => now };

// The same behaviour from every store; Redis where TEST_REDIS_URL is set (.ci/run), under
// this file's own key prefix.
const stores = sharedStoreBackends<Required<KvStore>>({
  database: (db) => new DatabaseKvStore(db, clock),
  redis: (client, prefix) => new RedisKvStore(client, prefix, clock),
});

describe.each(stores)(`Fedify KvStore (%s, ${testDialect()})`, (_name, store) => {
  let kv: Required<KvStore>;
  beforeAll(() => {
    kv = store();
  });

  it("sets, gets, overwrites and deletes JSON values", async () => {
    expect(await kv.get(["a"])).toBeUndefined();
    await kv.set(["a"], { n: 1, list: ["x"] });
    expect(await kv.get(["a"])).toEqual({ n: 1, list: ["x"] });
    await kv.set(["a"], "two");
    expect(await kv.get(["a"])).toBe("two");
    await kv.delete(["a"]);
    expect(await kv.get(["a"])).toBeUndefined();
  });

  it("forgets a value once its time to live has passed", async () => {
    await kv.set(["short"], 1, { ttl: ttl(60) });
    expect(await kv.get(["short"])).toBe(1);
    now = new Date(now.getTime() + 61_000);
    expect(await kv.get(["short"])).toBeUndefined();
  });

  it("lists by exact key prefix, LIKE wildcards and case taken literally", async () => {
    await kv.set(["p", "one"], 1);
    await kv.set(["p", "two", "deep"], 2);
    await kv.set(["P", "upper"], 3);
    await kv.set(["p%"], 4);
    await kv.set(["px"], 5);
    const listed: Array<[readonly string[], unknown]> = [];
    for await (const entry of kv.list(["p"])) listed.push([entry.key, entry.value]);
    expect(listed).toEqual([
      [["p", "one"], 1],
      [["p", "two", "deep"], 2],
    ]);
    const all: unknown[] = [];
    for await (const entry of kv.list()) all.push(entry.value);
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it("compares and swaps: only the caller expecting the stored value wins", async () => {
    expect(await kv.cas(["c"], undefined, 1)).toBe(true);
    expect(await kv.cas(["c"], undefined, 2)).toBe(false);
    const results = await Promise.all([kv.cas(["c"], 1, 10), kv.cas(["c"], 1, 20)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect([10, 20]).toContain(await kv.get(["c"]));
    expect(await kv.cas(["c"], 1, 30)).toBe(false);
  });
});

// Several sites on one Redis: REDIS_PREFIX keeps their keys apart.
const sites = sharedStoreBackends<Array<Required<KvStore>>>({
  database: (db) => [new DatabaseKvStore(db, clock)],
  redis: (client, prefix) => [
    new RedisKvStore(client, `${prefix}site-a:`, clock),
    new RedisKvStore(client, `${prefix}site-b:`, clock),
  ],
});

describe.each(sites.filter(([name]) => name === "redis"))("RedisKvStore (%s, two sites)", (_name, store) => {
  it("keeps each site's keys to itself", async () => {
    const [a, b] = store();
    if (!a || !b) throw new Error("two stores expected");
    await a.set(["shared", "key"], "a");
    await b.set(["shared", "key"], "b");
    expect(await a.get(["shared", "key"])).toBe("a");
    expect(await b.get(["shared", "key"])).toBe("b");
    await b.delete(["shared", "key"]);
    expect(await a.get(["shared", "key"])).toBe("a");
    const listed: unknown[] = [];
    for await (const entry of b.list(["shared"])) listed.push(entry.value);
    expect(listed).toEqual([]);
    expect(await b.cas(["shared", "key"], undefined, "b2")).toBe(true);
    expect(await a.get(["shared", "key"])).toBe("a");
  });
});
