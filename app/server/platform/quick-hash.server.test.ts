import { describe, expect, it } from "vitest";
import { quickHash, quickHashSeed, visitorKey } from "./quick-hash.server.ts";

describe("quickHash", () => {
  it("is stable for one seed and differs with the seed or the text", () => {
    const seed = 12345;
    expect(quickHash("2026-11-27\u0000127.0.0.1\u0000Firefox", seed)).toBe(
      quickHash("2026-11-27\u0000127.0.0.1\u0000Firefox", seed),
    );
    expect(quickHash("a", seed)).not.toBe(quickHash("b", seed));
    expect(quickHash("a", seed)).not.toBe(quickHash("a", seed + 1));
    expect(quickHash("", seed)).toMatch(/^[0-9a-z]+$/);
  });

  it("spreads near-identical keys without collisions", () => {
    const seed = quickHashSeed();
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++)
      seen.add(quickHash(`2026-11-27\u000010.0.${i >> 8}.${i & 255}\u0000Chrome`, seed));
    expect(seen.size).toBe(100_000);
    // One changed character flips about half of the 53 bits.
    const bits = (s: string) => Number.parseInt(s, 36).toString(2).padStart(53, "0");
    const x = bits(quickHash("visitor-a", seed));
    const y = bits(quickHash("visitor-b", seed));
    const differing = [...x].filter((c, i) => c !== y[i]).length;
    expect(differing).toBeGreaterThan(12);
  });
});

describe("visitorKey", () => {
  it("gives one key per address and browser, asked in any order", () => {
    const a = visitorKey("203.0.113.7", "Firefox");
    const b = visitorKey("203.0.113.8", "Firefox");
    const c = visitorKey("203.0.113.7", "Chrome");
    expect(new Set([a, b, c]).size).toBe(3);
    expect(visitorKey("203.0.113.7", "Firefox")).toBe(a);
    expect(visitorKey("203.0.113.7", "Firefox")).toBe(a);
    expect(visitorKey("203.0.113.8", "Firefox")).toBe(b);
    // The address and browser are not readable from the key.
    expect(a).not.toContain("203.0.113.7");
  });
});
