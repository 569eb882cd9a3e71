import { describe, expect, it } from "vitest";
import { sharedStoreBackends } from "../../../tests/setup/test-redis.ts";
import { redisContentVersion } from "../shared-state/redis.server.ts";
import {
  CHANGE_LOG_SIZE,
  type ChangeTags,
  type ContentVersionStore,
  dbContentVersion,
  decodeTags,
  encodeTags,
  mergeTags,
  watchContentVersion,
} from "./content-version.server.ts";

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
    const watch = watchContentVersion(store(), { intervalMs: 50, onChange: (v) => void seen.push(v) });
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

  it("tells a watcher what changed: the tags of narrow changes, all for the rest", async () => {
    const seen: ChangeTags[] = [];
    const watch = watchContentVersion(store(), { intervalMs: 60_000, onChange: (_v, tags) => void seen.push(tags) });
    try {
      await watch.check();
      expect(seen).toEqual(["all"]); // the first read knows nothing of what came before
      await store().bump(["post:a"]);
      await store().bump(["post:b", "post:a"]);
      await watch.check();
      expect(seen[1]).toEqual(["post:a", "post:b"]);
      await store().bump(["post:c"]);
      await store().bump();
      await watch.check();
      expect(seen[2]).toBe("all");
      expect(await store().changes(watch.current() - 2, watch.current())).toEqual([["post:c"], "all"]);
    } finally {
      await watch.stop();
    }
  });

  it("remembers only the latest changes: a watcher further behind drops everything", async () => {
    const seen: ChangeTags[] = [];
    const watch = watchContentVersion(store(), { intervalMs: 60_000, onChange: (_v, tags) => void seen.push(tags) });
    try {
      await watch.check();
      const from = watch.current();
      for (let i = 0; i < CHANGE_LOG_SIZE + 2; i++) await store().bump([`post:${i}`]);
      await watch.check();
      expect(watch.current()).toBe(from + CHANGE_LOG_SIZE + 2);
      expect(seen.at(-1)).toBe("all");
      expect((await store().changes(from, watch.current())).length).toBeLessThanOrEqual(CHANGE_LOG_SIZE);
    } finally {
      await watch.stop();
    }
  });
});

describe("change tags", () => {
  it("round-trip, and anything that is not a plain tag means all", () => {
    expect(decodeTags(encodeTags(["post:a1_b-2", "post:c"]))).toEqual(["post:a1_b-2", "post:c"]);
    expect(encodeTags("all")).toBe("*");
    expect(decodeTags("*")).toBe("all");
    expect(encodeTags([])).toBe("*");
    expect(encodeTags(["post:a b"])).toBe("*");
    expect(encodeTags(["post:a|b"])).toBe("*");
    expect(mergeTags([["post:a"], ["post:a", "post:b"]])).toEqual(["post:a", "post:b"]);
    expect(mergeTags([["post:a"], "all"])).toBe("all");
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
      changes: async () => [],
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
