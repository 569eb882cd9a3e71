import { describe, expect, it } from "vitest";
import {
  chosenPrice,
  estimateFees,
  MAX_COMPUTE_UNITS,
  MAX_CUSTOM_PRICE,
  parseCustomPrice,
  priorityFeeLamports,
  unitLimitFor,
} from "./fees.ts";

const recent = (...fees: number[]) => fees.map((prioritizationFee, slot) => ({ slot, prioritizationFee }));

describe("priority fee levels", () => {
  it("pays the 50th, 75th and 95th percentile of recent fees", () => {
    const fees = recent(...Array.from({ length: 100 }, (_, i) => (i + 1) * 10_000));
    expect(estimateFees(fees)).toEqual({ normal: 500_000n, fast: 750_000n, turbo: 950_000n });
  });

  it("never goes below each level's floor, or below the level under it", () => {
    expect(estimateFees([])).toEqual({ normal: 1_000n, fast: 10_000n, turbo: 100_000n });
    expect(estimateFees(recent(0, 0, 0, 0))).toEqual({ normal: 1_000n, fast: 10_000n, turbo: 100_000n });
    // A busy median above the fast floor: fast and turbo follow it up.
    expect(estimateFees(recent(200_000, 200_000, 200_000, 200_000))).toEqual({
      normal: 200_000n,
      fast: 200_000n,
      turbo: 200_000n,
    });
  });
});

describe("compute-unit limits", () => {
  it("adds 15% and 1,000 units to what the simulation consumed, within the network's maximum", () => {
    expect(unitLimitFor(0)).toBe(1_000);
    expect(unitLimitFor(10_000)).toBe(12_500);
    expect(unitLimitFor(1_300_000)).toBe(MAX_COMPUTE_UNITS);
  });

  it("charges price × limit in micro-lamports, rounded up to a whole lamport", () => {
    expect(priorityFeeLamports({ unitLimit: 12_500, unitPrice: 10_000n })).toBe(125n);
    expect(priorityFeeLamports({ unitLimit: 1, unitPrice: 1n })).toBe(1n);
    expect(priorityFeeLamports({ unitLimit: 12_500, unitPrice: 0n })).toBe(0n);
  });
});

describe("a custom price", () => {
  it("takes whole micro-lamports from 0 to the maximum and nothing else", () => {
    expect(parseCustomPrice(" 25000 ")).toBe(25_000n);
    expect(parseCustomPrice("0")).toBe(0n);
    expect(parseCustomPrice(MAX_CUSTOM_PRICE.toString())).toBe(MAX_CUSTOM_PRICE);
    for (const bad of ["", "1.5", "-1", "1e6", "abc", (MAX_CUSTOM_PRICE + 1n).toString(), "9".repeat(40)]) {
      expect(parseCustomPrice(bad), bad).toBeNull();
    }
  });

  it("is used only when the reader picked it", () => {
    const estimate = { normal: 1n, fast: 2n, turbo: 3n };
    expect(chosenPrice("fast", estimate, "999")).toBe(2n);
    expect(chosenPrice("custom", estimate, "999")).toBe(999n);
    expect(chosenPrice("custom", estimate, "x")).toBeNull();
  });
});
