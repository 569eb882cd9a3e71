import { describe, expect, it } from "vitest";
import { cpuCost, cpuMs, readCost } from "./read-cost.ts";

describe("readCost", () => {
  it("is the median of the pairs' shares lost to counting", () => {
    expect(
      readCost([
        { counted: 950, uncounted: 1000 }, // 5 %
        { counted: 990, uncounted: 1000 }, // 1 %
        { counted: 800, uncounted: 1000 }, // 20 %: a pair disturbed by other work
      ]),
    ).toBe(0.05);
    expect(
      readCost([
        { counted: 990, uncounted: 1000 },
        { counted: 1010, uncounted: 1000 },
      ]),
    ).toBe(0);
  });

  it("refuses to answer without a measurement", () => {
    expect(() => readCost([])).toThrow("no pairs");
    expect(() => readCost([{ counted: 0, uncounted: 0 }])).toThrow("served nothing");
  });
});

describe("cpuCost", () => {
  it("is the median of the extra CPU per request that counting takes", () => {
    expect(
      cpuCost([
        { counted: 105, uncounted: 100 },
        { counted: 102, uncounted: 100 },
        { counted: 160, uncounted: 100 },
      ]),
    ).toBe(0.05);
  });
});

describe("cpuMs", () => {
  it("reads this process's CPU time, which grows with work", () => {
    const before = cpuMs(process.pid);
    expect(before).not.toBeNull();
    // Spins until the clock ticks over (10 ms of CPU), or 10 s pass on a machine too busy to give it any.
    let x = 0;
    let after = before;
    const until = performance.now() + 10_000;
    while (after === before && performance.now() < until) {
      for (let i = 0; i < 100_000; i++) x += Math.sqrt(x + i);
      after = cpuMs(process.pid);
    }
    expect(x).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(before ?? Number.POSITIVE_INFINITY);
  });
});
