import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseOptions, runBench, scriptFlags, serverNodeFlags, writeResults } from "./bench.ts";
import { percentile } from "./load.ts";
import { type BenchResult, markdownTables, RUN_KINDS } from "./report.ts";

describe("bench options", () => {
  it("defaults to 100 posts, 10 s per page, 32 connections and all three runs", () => {
    expect(parseOptions([])).toMatchObject({
      posts: 100,
      duration: 10,
      warmup: 1,
      connections: 32,
      runs: ["cache", "nocache", "static"],
    });
  });

  it("has a quick mode, one run with --only, and refuses nonsense", () => {
    expect(parseOptions(["--quick"])).toMatchObject({ posts: 14, duration: 1, connections: 4, uploadBytes: 1_000_000 });
    expect(parseOptions([]).uploadBytes).toBe(10_000_000);
    expect(parseOptions(["--upload-mb", "0"]).uploadBytes).toBe(0);
    expect(() => parseOptions(["--upload-mb", "11"])).toThrow();
    expect(parseOptions(["--quick", "--duration", "0.5", "--only", "static"])).toMatchObject({
      duration: 0.5,
      runs: ["static"],
    });
    expect(parseOptions(["--posts", "10000"]).posts).toBe(10_000);
    // Readers' requests carry a browser's User-Agent; `--agent none` leaves it out.
    expect(parseOptions([]).userAgent).toMatch(/^Mozilla\/5\.0 .*Chrome\//);
    expect(parseOptions(["--agent", "none"]).userAgent).toBeUndefined();
    expect(() => parseOptions(["--agent", "curl"])).toThrow("--agent takes browser or none");
    expect(() => parseOptions(["--posts", "10001"])).toThrow();
    expect(() => parseOptions(["--posts", "1.5"])).toThrow();
    expect(() => parseOptions(["--only", "everything"])).toThrow();
    expect(() => parseOptions(["--connections", "-1"])).toThrow();
    expect(() => parseOptions(["--frobnicate"])).toThrow();
  });
});

describe("percentile", () => {
  it("takes the nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});

describe("npm run bench (tiny)", () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "inkwell-bench-test-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("measures every page in every run and writes latest.json and latest.md", async () => {
    const options = {
      ...parseOptions(["--quick", "--out", out]),
      // A few requests per page rather than a duration: done fast, and never empty on a busy machine.
      amount: 6,
      warmup: 0,
      connections: 2,
    };
    const lines: string[] = [];
    writeResults(await runBench(options, (line) => lines.push(line)), options.outDir);

    const result = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResult;
    expect(result.version).toBe(1);
    expect(result.seed.posts).toBe(14);
    expect(result.seed.ms).toBeGreaterThan(0);
    expect(Object.keys(result.pages)).toEqual(["home", "list", "post", "tag", "search", "rss"]);
    expect(Object.keys(result.runs).sort()).toEqual([...RUN_KINDS].sort());
    for (const kind of RUN_KINDS) {
      const run = result.runs[kind];
      expect(run, kind).toBeDefined();
      if (!run) continue;
      expect(run.bootMs, kind).toBeGreaterThan(0);
      expect(run.coldFirstRequestMs, kind).toBeGreaterThan(0);
      expect(run.peakRssMiB, kind).toBeGreaterThan(0);
      for (const [name, pagePath] of Object.entries(result.pages)) {
        const page = run.pages[name];
        expect(page, `${kind} ${name}`).toMatchObject({ path: pagePath, status: 200 });
        for (const key of ["requestsPerSec", "requests", "p50Ms", "p99Ms", "coldMs", "bytes"] as const) {
          expect(page?.[key], `${kind} ${name} ${key}`).toBeGreaterThan(0);
        }
        expect(page?.p99Ms).toBeGreaterThanOrEqual(page?.p50Ms ?? 0);
        expect(page?.single.requests, `${kind} ${name} single`).toBeGreaterThan(0);
        expect(page?.single.p50Ms, `${kind} ${name} single`).toBeGreaterThan(0);
        expect(page?.single.p99Ms).toBeGreaterThanOrEqual(page?.single.p50Ms ?? 0);
        for (const key of ["errors", "timeouts", "non2xx"] as const) {
          expect(page?.[key], `${kind} ${name} ${key}`).toBeGreaterThanOrEqual(0);
        }
      }
    }
    // Readers were timed while an export was uploaded and checked (1 MB in quick mode).
    expect(result.importUpload).toMatchObject({ status: 200, targetMs: 100 });
    expect(result.importUpload?.posts).toBeGreaterThan(100);
    expect(result.importUpload?.healthz.requests).toBeGreaterThan(0);
    expect(result.importUpload?.healthz.p99Ms).toBeGreaterThanOrEqual(result.importUpload?.healthz.p50Ms ?? 0);
    // Every page a server answered is the page the static ceiling served.
    expect(result.runs.static?.pages.post?.bytes).toBe(result.runs.nocache?.pages.post?.bytes);

    const md = readFileSync(path.join(out, "latest.md"), "utf8");
    expect(md).toContain(markdownTables(result));
    for (const pagePath of Object.values(result.pages)) expect(md).toContain(`\`${pagePath}\``);
    expect(md).toMatch(/render cache on \| [\d,]+ \|/);
  }, 90_000);
});

describe("serverNodeFlags", () => {
  it("takes the Node options of the start script, as npm start passes them", () => {
    expect(serverNodeFlags("node --max-semi-space-size=16 scripts/start.js")).toEqual(["--max-semi-space-size=16"]);
    expect(serverNodeFlags("node scripts/start.js --dev")).toEqual([]);
    expect(serverNodeFlags("tsx scripts/start.js")).toEqual([]);
  });

  it("reads the CLI's options from package.json, which bound its young generation for long imports", () => {
    expect(scriptFlags("cli")).toContain("--expose-gc");
    expect(scriptFlags("cli")).toContain("--max-semi-space-size=16");
    expect(scriptFlags("no-such-script")).toEqual([]);
  });

  it("reads the server's options from package.json, which keep its old generation near the live heap", () => {
    expect(scriptFlags("start")).toContain("--heap-growing-percent=50");
    expect(scriptFlags("start")).toContain("--max-semi-space-size=16");
  });
});
