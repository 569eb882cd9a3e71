import { describe, expect, it } from "vitest";
import { bulkCollector, exposedCollector } from "./bulk-gc.server.ts";

describe("bulkCollector", () => {
  it("collects once every interval of continuous work, counted from the run's start", () => {
    let t = 1_000;
    let collections = 0;
    const pacer = bulkCollector({ everyMs: 5_000, now: () => t, collect: () => collections++ });
    const results: boolean[] = [];
    for (const step of [1_000, 1_000, 2_999, 1, 4_000, 1_000, 5_000]) {
      t += step;
      results.push(pacer.afterWork());
    }
    // 1 s, 2 s, 4.999 s: none; 5 s: one; then 4 s and 5 s after it: none, one.
    expect(results).toEqual([false, false, false, true, false, true, true]);
    expect(collections).toBe(3);
  });

  it("measures the next interval from the end of a slow collection", () => {
    let t = 0;
    let collections = 0;
    const pacer = bulkCollector({
      everyMs: 100,
      now: () => t,
      collect: () => {
        collections++;
        t += 80; // the collection itself took 80 ms
      },
    });
    t = 100;
    expect(pacer.afterWork()).toBe(true);
    t = 200; // 100 ms after it began, 20 after it ended
    expect(pacer.afterWork()).toBe(false);
    t = 280;
    expect(pacer.afterWork()).toBe(true);
    expect(collections).toBe(2);
  });

  it("does nothing when the process has no exposed collector", () => {
    let t = 0;
    const pacer = bulkCollector({ everyMs: 1, now: () => t, collect: null });
    t = 10_000;
    expect(pacer.afterWork()).toBe(false);
  });

  it("finds V8's collector only when it is exposed", () => {
    const had = Reflect.get(globalThis, "gc");
    try {
      Reflect.deleteProperty(globalThis, "gc");
      expect(exposedCollector()).toBeNull();
      let called = 0;
      Reflect.set(globalThis, "gc", () => called++);
      exposedCollector()?.();
      expect(called).toBe(1);
    } finally {
      if (had === undefined) Reflect.deleteProperty(globalThis, "gc");
      else Reflect.set(globalThis, "gc", had);
    }
  });
});
