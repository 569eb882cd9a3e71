import { describe, expect, it } from "vitest";
import { sharedStoreBackends } from "../../../tests/setup/test-redis.ts";
import { redisContentVersion } from "../shared-state/redis.server.ts";
import { type ContentVersionStore, dbContentVersion, watchContentVersion } from "./content-version.server.ts";

// Every store behaves alike; Redis where TEST_REDIS_URL is set (.ci/run).
const stores = sharedStoreBackends<ContentVersionStore>({ database: dbContentVersion, redis: redisContentVersion });

describe.each(stores)("content version (%s)", (_name, store) => {
  it("is never 0 (0 means unknown) and counts every bump", async () => {
    const before = await store().read();
    expect(before).toBeGreaterThan(0);
    await Promise.all([store().bump(), store().bump(), store().bump()]);
    expect(await store().read()).toBe(before + 3);
  });

  it("tells a watcher about another writer's bump", async () => {
    const seen: number[] = [];
    const watch = watchContentVersion(store(), { intervalMs: 50, onChange: (v) => seen.push(v) });
    try {
      await watch.check();
      const first = watch.current();
      expect(first).toBeGreaterThan(0);
      await store().bump();
      await expect.poll(() => watch.current(), { timeout: 2000, interval: 20 }).toBe(first + 1);
      expect(seen).toEqual([first, first + 1]);
    } finally {
      await watch.stop();
    }
  });
});

describe("content version watcher", () => {
  it("reports 0 (unknown) while the store fails, and the version again after", async () => {
    let failing = false;
    let version = 7;
    const flaky: ContentVersionStore = {
      bump: async () => {
        version++;
      },
      read: async () => {
        if (failing) throw new Error("store down");
        return version;
      },
    };
    const errors: unknown[] = [];
    const watch = watchContentVersion(flaky, { intervalMs: 1000, onChange: () => {}, onError: (e) => errors.push(e) });
    try {
      await watch.check();
      expect(watch.current()).toBe(7);
      failing = true;
      await watch.check();
      expect(watch.current()).toBe(0);
      expect(errors).toHaveLength(1);
      failing = false;
      await watch.check();
      expect(watch.current()).toBe(7);
    } finally {
      await watch.stop();
    }
  });
});
