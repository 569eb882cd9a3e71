import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ProbeSample, parseSoakOptions, probeSamples, runSoak, slope, soakTable, summarise } from "./soak.ts";

describe("soak options", () => {
  it("defaults to 10 minutes, 8 connections, 100 posts, and refuses nonsense", () => {
    expect(parseSoakOptions([])).toMatchObject({ minutes: 10, connections: 8, posts: 100, probeSeconds: 5 });
    expect(parseSoakOptions(["--minutes", "0.5"]).minutes).toBe(0.5);
    expect(() => parseSoakOptions(["--minutes", "0"])).toThrow(/--minutes/);
    expect(() => parseSoakOptions(["--connections", "1.5"])).toThrow(/--connections/);
    expect(() => parseSoakOptions(["--hours", "1"])).toThrow();
  });
});

describe("soak arithmetic", () => {
  it("fits a least-squares slope", () => {
    expect(slope([])).toBe(0);
    expect(slope([[0, 5]])).toBe(0);
    expect(
      slope([
        [0, 1],
        [1, 3],
        [2, 5],
      ]),
    ).toBeCloseTo(2);
    expect(
      slope([
        [0, 10],
        [1, 10],
        [2, 10],
      ]),
    ).toBe(0);
  });

  it("reads probe lines and ignores everything else", () => {
    const out = [
      "Inkwell is serving …",
      'SOAK_PROBE {"at":1,"p99Ms":3,"maxMs":9,"rssBytes":100,"heapUsedBytes":50}',
      "SOAK_PROBE {broken",
      'SOAK_PROBE {"at":2,"p99Ms":4,"maxMs":8,"rssBytes":110,"heapUsedBytes":55}',
    ].join("\n");
    expect(probeSamples(out).map((s) => s.at)).toEqual([1, 2]);
  });

  it("measures growth and delay after the warm-up fifth only", () => {
    // 10 minutes, one sample a minute: a big jump during warm-up, flat after it.
    const samples: ProbeSample[] = Array.from({ length: 11 }, (_, i) => ({
      at: i * 60_000,
      p99Ms: i === 0 ? 500 : 20 + i,
      maxMs: 40,
      rssBytes: (i < 2 ? 100 : 200) * 1e6,
      heapUsedBytes: 0,
    }));
    const r = summarise(
      samples,
      { requests: 1000, writes: 200, errors: 0, timeouts: 0, non2xx: 0, seconds: 600 },
      { minutes: 10, connections: 8 },
    );
    expect(r.memoryGrowthMBPerMin).toBe(0);
    expect(r.eventLoopP99Ms).toBe(30);
    expect(r.targets).toEqual({ errors: true, memory: true, eventLoop: true });
    const leaking = summarise(
      samples.map((s) => ({ ...s, rssBytes: s.rssBytes + (s.at / 60_000) * 3e6 })),
      { requests: 1000, writes: 200, errors: 0, timeouts: 0, non2xx: 1, seconds: 600 },
      { minutes: 10, connections: 8 },
    );
    expect(leaking.memoryGrowthMBPerMin).toBeCloseTo(3);
    expect(leaking.targets).toMatchObject({ errors: false, memory: false });
  });
});

describe("a short soak, end to end", () => {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "inkwell-soak-test-"));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("runs reads and writes against the server without an error and reports the probe", async () => {
    const result = await runSoak({ minutes: 0.05, connections: 2, posts: 24, probeSeconds: 0.5, outDir }, () => {});
    expect(result.requests).toBeGreaterThan(0);
    expect(result.writes).toBeGreaterThan(0);
    expect(result.errors + result.timeouts + result.non2xx).toBe(0);
    expect(result.samples).toBeGreaterThan(0);
    expect(result.rssEndMiB).toBeGreaterThan(0);
    expect(soakTable(result)).toContain("event-loop delay");
  }, 60_000);
});
