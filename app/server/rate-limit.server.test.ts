import { describe, expect, it } from "vitest";
import { sharedStoreBackends } from "../../tests/setup/test-redis.ts";
import { dbRateLimitStore, hit, hitAll, type RateLimitStore } from "./rate-limit.server.ts";
import { redisRateLimitStore } from "./shared-state/redis.server.ts";

// The same behaviour from every store; Redis where TEST_REDIS_URL is set (.ci/run).
const stores = sharedStoreBackends<RateLimitStore>({ database: dbRateLimitStore, redis: redisRateLimitStore });

describe.each(stores)("rate limits (%s)", (_name, store) => {
  it("allows up to max hits in a window, then refuses with a retry time", async () => {
    const limit = { max: 3, windowMs: 60_000 };
    const t = 1_800_000_000_000;
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await hit(store(), "k1", limit, t + i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[4]?.count).toBe(5);
    expect(results[4]?.retryAfterSeconds).toBe(60);
  });

  it("starts a new window after the old one ends", async () => {
    const limit = { max: 1, windowMs: 1000 };
    const t = 1_800_000_000_000;
    expect((await hit(store(), "k2", limit, t)).allowed).toBe(true);
    expect((await hit(store(), "k2", limit, t + 500)).allowed).toBe(false);
    expect((await hit(store(), "k2", limit, t + 1000)).allowed).toBe(true);
  });

  it("counts concurrent hits exactly", async () => {
    const limit = { max: 1000, windowMs: 60_000 };
    const t = 1_800_000_000_000;
    await Promise.all(Array.from({ length: 25 }, () => hit(store(), "k3", limit, t)));
    expect((await hit(store(), "k3", limit, t)).count).toBe(26);
  });

  it("keeps keys apart", async () => {
    const limit = { max: 1, windowMs: 60_000 };
    const t = 1_800_000_000_000;
    expect((await hit(store(), "k4:a", limit, t)).allowed).toBe(true);
    expect((await hit(store(), "k4:b", limit, t)).allowed).toBe(true);
    expect((await hit(store(), "k4:a", limit, t)).allowed).toBe(false);
  });

  it("refuses when any of several keys is over its limit", async () => {
    const t = 1_800_000_000_000;
    const tight = { max: 1, windowMs: 60_000 };
    const loose = { max: 100, windowMs: 60_000 };
    await hitAll(
      store(),
      [
        { key: "ip:a", limit: loose },
        { key: "acct:x", limit: tight },
      ],
      t,
    );
    const second = await hitAll(
      store(),
      [
        { key: "ip:b", limit: loose },
        { key: "acct:x", limit: tight },
      ],
      t,
    );
    expect(second.allowed).toBe(false);
  });
});
