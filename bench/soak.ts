// `npm run soak -- --minutes 10`: a steady mixed load of reads and writes against
// the production server on a fresh, seeded data directory. Reports errors (target
// 0), memory growth after warm-up (target under 1 MB/min) and the event loop's
// delay, p99 (target under 100 ms). Writes bench/results/soak-latest.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon, { type Request as LoadRequest } from "autocannon";
import { ensureBuild, SERVER_ENTRY } from "../scripts/build-if-stale.js";
import { pickPages, seed, serverEnv } from "./bench.ts";
import { repoRoot, startProcess } from "./process.ts";

export interface SoakOptions {
  minutes: number;
  connections: number;
  posts: number;
  /** Seconds between the server's probe lines. */
  probeSeconds: number;
  outDir: string;
}

export const SOAK_USAGE = `Usage: npm run soak -- [--minutes N] [--connections N] [--posts N]

  --minutes      how long the load runs (default 10; fractions allowed)
  --connections  concurrent clients (default 8)
  --posts        demo posts seeded first (default 100)`;

export function parseSoakOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: "string" },
      connections: { type: "string" },
      posts: { type: "string" },
      "probe-seconds": { type: "string" },
      out: { type: "string" },
    },
    strict: true,
  });
  const number = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return n;
  };
  const integer = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
    const n = number(name, raw, fallback, min, max);
    if (!Number.isInteger(n)) throw new Error(`--${name} must be a whole number`);
    return n;
  };
  return {
    minutes: number("minutes", values.minutes, 10, 0.05, 24 * 60),
    connections: integer("connections", values.connections, 8, 1, 256),
    posts: integer("posts", values.posts, 100, 1, 10_000),
    probeSeconds: number("probe-seconds", values["probe-seconds"], 5, 0.2, 60),
    outDir: values.out ?? path.join(repoRoot, "bench", "results"),
  };
}

export interface ProbeSample {
  at: number;
  p99Ms: number;
  maxMs: number;
  rssBytes: number;
  heapUsedBytes: number;
}

/** The probe lines in a server's output. */
export function probeSamples(output: string): ProbeSample[] {
  const samples: ProbeSample[] = [];
  for (const line of output.split("\n")) {
    if (!line.startsWith("SOAK_PROBE ")) continue;
    try {
      samples.push(JSON.parse(line.slice("SOAK_PROBE ".length)) as ProbeSample);
    } catch {
      // a line cut short by the process stopping
    }
  }
  return samples;
}

/** Least-squares slope of y over x (per unit of x); 0 with fewer than two points. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export interface SoakResult {
  minutes: number;
  connections: number;
  requests: number;
  writes: number;
  requestsPerSec: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** RSS growth after warm-up (the first fifth), MB per minute (least squares). */
  memoryGrowthMBPerMin: number;
  rssStartMiB: number;
  rssEndMiB: number;
  /** The worst per-interval p99 of the event loop's delay after warm-up, and the median one. */
  eventLoopP99Ms: number;
  eventLoopP99MedianMs: number;
  samples: number;
  targets: { errors: boolean; memory: boolean; eventLoop: boolean };
}

/** Summarises the probe samples and the load generator's counts. */
export function summarise(
  samples: ProbeSample[],
  load: { requests: number; writes: number; errors: number; timeouts: number; non2xx: number; seconds: number },
  opts: { minutes: number; connections: number },
): SoakResult {
  const start = samples[0]?.at ?? 0;
  const warm = samples.filter((s) => s.at - start >= (opts.minutes * 60_000) / 5);
  const used = warm.length >= 2 ? warm : samples;
  const growth = slope(used.map((s) => [(s.at - start) / 60_000, s.rssBytes / 1e6] as const));
  const p99s = used.map((s) => s.p99Ms).sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  const result: SoakResult = {
    minutes: opts.minutes,
    connections: opts.connections,
    requests: load.requests,
    writes: load.writes,
    requestsPerSec: round(load.requests / Math.max(1, load.seconds)),
    errors: load.errors,
    timeouts: load.timeouts,
    non2xx: load.non2xx,
    memoryGrowthMBPerMin: round(growth),
    rssStartMiB: round((used[0]?.rssBytes ?? 0) / 2 ** 20),
    rssEndMiB: round((used.at(-1)?.rssBytes ?? 0) / 2 ** 20),
    eventLoopP99Ms: round(p99s.at(-1) ?? 0),
    eventLoopP99MedianMs: round(p99s[Math.floor(p99s.length / 2)] ?? 0),
    samples: used.length,
    targets: { errors: false, memory: false, eventLoop: false },
  };
  result.targets = {
    errors: result.errors + result.timeouts + result.non2xx === 0,
    memory: result.memoryGrowthMBPerMin < 1,
    eventLoop: result.eventLoopP99Ms < 100,
  };
  return result;
}

export async function runSoak(options: SoakOptions, log: (line: string) => void = console.log): Promise<SoakResult> {
  ensureBuild({ quiet: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "inkwell-soak-"));
  try {
    log(`seeding ${options.posts} posts…`);
    seed(dataDir, options.posts);
    const pages = await pickPages(dataDir);
    const server = await startProcess(["--import", "./bench/soak-probe.js", SERVER_ENTRY], {
      ...serverEnv(dataDir, true),
      // Each write comes from its own client address (X-Forwarded-For, believed
      // behind one proxy hop): many readers, not one abuser the limits would stop.
      TRUST_PROXY: "1",
      SOAK_PROBE_INTERVAL_MS: String(Math.round(options.probeSeconds * 1000)),
    });
    try {
      const seconds = options.minutes * 60;
      log(`loading ${server.url} for ${options.minutes} min with ${options.connections} connections…`);
      let n = 0;
      let writes = 0;
      const form = (i: number, body: Record<string, string>) => ({
        method: "POST" as const,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url,
          "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
        body: new URLSearchParams(body).toString(),
      });
      // Eight reads, then a contact message and a subscription: one request in five writes.
      const reads = [pages.home, pages.list, pages.post, pages.tag, pages.search, pages.rss, pages.post, pages.home];
      const instance = autocannon({
        url: server.url,
        connections: options.connections,
        duration: seconds,
        timeout: 10,
        requests: [
          ...reads.map((p) => ({ method: "GET" as const, path: p })),
          {
            path: "/contact",
            setupRequest: (req: LoadRequest) => {
              writes++;
              const i = n++;
              return {
                ...req,
                ...form(i, {
                  name: "Soak",
                  email: `soak-${i}@example.test`,
                  message: `soak message ${i}`,
                  website: "",
                }),
              };
            },
          },
          {
            path: "/subscribe",
            setupRequest: (req: LoadRequest) => {
              writes++;
              const i = n++;
              return { ...req, ...form(i, { email: `soak-${i}@example.test` }) };
            },
          },
        ],
      });
      const result = await instance;
      // One more probe line after the load, then stop.
      await new Promise((r) => setTimeout(r, options.probeSeconds * 1000 + 200));
      const samples = probeSamples(server.output());
      return summarise(
        samples,
        {
          requests: result.requests.total,
          writes,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          seconds: result.duration || seconds,
        },
        options,
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function soakTable(r: SoakResult): string {
  const mark = (ok: boolean) => (ok ? "met" : "missed");
  return [
    "| what | measured | target |",
    "|---|---|---|",
    `| requests (writes) | ${r.requests} (${r.writes}), ${r.requestsPerSec} req/s, ${r.minutes} min, c=${r.connections} | |`,
    `| errors, timeouts, non-2xx | ${r.errors}, ${r.timeouts}, ${r.non2xx} | 0 (${mark(r.targets.errors)}) |`,
    `| memory growth after warm-up | ${r.memoryGrowthMBPerMin} MB/min (RSS ${r.rssStartMiB} → ${r.rssEndMiB} MiB) | < 1 MB/min (${mark(r.targets.memory)}) |`,
    `| event-loop delay p99 (worst / median interval) | ${r.eventLoopP99Ms} / ${r.eventLoopP99MedianMs} ms | < 100 ms (${mark(r.targets.eventLoop)}) |`,
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  let options: SoakOptions;
  try {
    options = parseSoakOptions(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${SOAK_USAGE}`);
    return 2;
  }
  const result = await runSoak(options);
  mkdirSync(options.outDir, { recursive: true });
  const file = path.join(options.outDir, "soak-latest.json");
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${soakTable(result)}\n\nwrote ${file}`);
  return result.targets.errors ? 0 : 1;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
