import { describe, expect, it } from "vitest";
import { sharedStoreBackends } from "../../../tests/setup/test-redis.ts";
import { redisRateLimitStore } from "../shared-state/redis.server.ts";
import { addressBucket, dbRateLimitStore, hit, hitAll, type RateLimitStore, spent } from "./rate-limit.server.ts";

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

  it("tells whether a budget is spent without counting, and writes nothing for a key never counted", async () => {
    const limit = { max: 2, windowMs: 60_000 };
    const t = 1_800_000_000_000;
    expect(await store().peek("k5", t)).toBeNull();
    expect((await spent(store(), "k5", limit, t)).allowed).toBe(true);
    expect(await store().peek("k5", t)).toBeNull();
    await hit(store(), "k5", limit, t);
    expect(await store().peek("k5", t + 1)).toEqual({ count: 1, expiresAt: t + 60_000 });
    expect((await spent(store(), "k5", limit, t + 1)).allowed).toBe(true);
    await hit(store(), "k5", limit, t + 2);
    const over = await spent(store(), "k5", limit, t + 3);
    expect(over).toEqual({ allowed: false, count: 2, retryAfterSeconds: 60 });
    // Peeking counted nothing; the window's end frees the budget.
    expect((await spent(store(), "k5", limit, t + 60_000)).allowed).toBe(true);
  });
});

describe("the address a per-address limit counts against", () => {
  it("is an IPv4 address as it is, and an IPv6 address's /64", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:0DB8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(addressBucket("unknown")).toBe("unknown");
  });
});
