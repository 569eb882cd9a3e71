// `npm run bench:reads`: what counting readers costs the cached post page (issue 26:
// recording must not lower its req/s by more than 5 %). One production server, render
// cache on; the newest post is loaded in alternating runs with a browser's User-Agent
// (counted: the post view and the Insights read) and without one (not counted), in
// pairs, so that other work on the machine falls on both sides alike. Prints each pair
// and the median of the pairs' ratios; `--check` exits 1 when the cost is over 5 %.
// Each run also reads the server's CPU time from /proc, so the CPU a request takes is
// compared too: on a machine busy with other work req/s swings by tens of percent from
// one run to the next, CPU per request much less.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureBuild, SERVER_ENTRY } from "../scripts/build-if-stale.js";
import { pickPages, seed, serverEnv, settle, startScriptFlags } from "./bench.ts";
import { BROWSER_USER_AGENT, loadPage } from "./load.ts";
import { startProcess } from "./process.ts";

/** The most that counting reads may take from the cached post page's req/s. */
export const READ_COST_LIMIT = 0.05;

export interface Pair {
  /** With the browser's User-Agent (reads counted): req/s, or CPU µs per request. */
  counted: number;
  /** Without a User-Agent (nothing counted). */
  uncounted: number;
}

/** The CPU time (user + system, all threads) a process has used, in ms; null off Linux. */
export function cpuMs(pid: number): number | null {
  try {
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : null;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/**
 * The cost of counting as a share of the uncounted req/s: the median over the pairs of
 * 1 − counted/uncounted (negative when the counted run happened to be faster).
 */
export function readCost(pairs: readonly Pair[]): number {
  return medianShare(pairs, (p) => 1 - p.counted / p.uncounted);
}

/** The same from CPU per request: the median of counted/uncounted − 1. */
export function cpuCost(pairs: readonly Pair[]): number {
  return medianShare(pairs, (p) => p.counted / p.uncounted - 1);
}

function medianShare(pairs: readonly Pair[], share: (p: Pair) => number): number {
  if (pairs.length === 0) throw new Error("no pairs measured");
  const costs = pairs
    .filter((p) => p.uncounted > 0)
    .map(share)
    .sort((a, b) => a - b);
  if (costs.length === 0) throw new Error("every run served nothing");
  const mid = Math.floor(costs.length / 2);
  const median = costs.length % 2 ? (costs[mid] ?? 0) : ((costs[mid - 1] ?? 0) + (costs[mid] ?? 0)) / 2;
  return Math.round(median * 10_000) / 10_000;
}

const USAGE = `Usage: npm run bench:reads -- [--pairs N] [--duration S] [--connections C] [--posts N] [--check]`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      pairs: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      posts: { type: "string" },
      check: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const num = (raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${USAGE}\n(a number above 0 expected, got ${raw})`);
    return n;
  };
  const pairs = num(values.pairs, 5);
  const duration = num(values.duration, 5);
  const connections = num(values.connections, 32);
  const posts = num(values.posts, 100);

  ensureBuild({ quiet: true });
  const work = mkdtempSync(path.join(os.tmpdir(), "inkwell-read-cost-"));
  const dataDir = path.join(work, "data");
  try {
    console.log(`seeding ${posts} posts`);
    seed(dataDir, posts);
    const pages = await pickPages(dataDir);
    const server = await startProcess([...startScriptFlags(), SERVER_ENTRY], serverEnv(dataDir, true), {
      timeoutMs: 60_000,
    });
    const url = `${server.url}${pages.post}`;
    const loadStart = os.loadavg()[0] ?? 0;
    const measured: Pair[] = [];
    const cpu: Pair[] = [];
    try {
      // Warms the render cache and the JIT on both paths before anything is measured.
      for (const userAgent of [BROWSER_USER_AGENT, undefined])
        await loadPage(url, { connections, duration: 2, warmup: 0, ...(userAgent ? { userAgent } : {}) });
      for (let i = 0; i < pairs; i++) {
        // Which side goes first alternates, so a trend in the machine's load favours neither.
        const order = i % 2 === 0 ? (["counted", "uncounted"] as const) : (["uncounted", "counted"] as const);
        const pair: Pair = { counted: 0, uncounted: 0 };
        const cpuPair: Pair = { counted: 0, uncounted: 0 };
        for (const side of order) {
          await settle(server.url);
          const cpuBefore = cpuMs(server.pid);
          const result = await loadPage(url, {
            connections,
            duration,
            warmup: 0,
            ...(side === "counted" ? { userAgent: BROWSER_USER_AGENT } : {}),
          });
          if (result.errors || result.non2xx)
            throw new Error(`${side}: ${result.errors} errors, ${result.non2xx} non-2xx`);
          pair[side] = result.requestsPerSec;
          const cpuAfter = cpuMs(server.pid);
          if (cpuBefore !== null && cpuAfter !== null && result.requests > 0)
            cpuPair[side] = Math.round(((cpuAfter - cpuBefore) * 1000) / result.requests);
        }
        measured.push(pair);
        if (cpuPair.uncounted > 0) cpu.push(cpuPair);
        console.log(
          `pair ${i + 1}: counted ${pair.counted} req/s, uncounted ${pair.uncounted} req/s (${(
            (1 - pair.counted / pair.uncounted) * 100
          ).toFixed(1)} %); CPU per request ${cpuPair.counted} µs against ${cpuPair.uncounted} µs`,
        );
      }
    } finally {
      await server.stop();
    }
    const cost = readCost(measured);
    const loadEnd = os.loadavg()[0] ?? 0;
    if (cpu.length > 0)
      console.log(
        `\ncounting reads costs ${(cpuCost(cpu) * 100).toFixed(1)} % more CPU per request (median of ${cpu.length} pairs)`,
      );
    console.log(
      `counting reads costs the cached post page ${(cost * 100).toFixed(1)} % of its req/s (median of ${pairs} pairs, ` +
        `${connections} connections, ${duration} s each; load average ${loadStart.toFixed(1)} → ${loadEnd.toFixed(1)}, ` +
        `${os.cpus().length} cores, Node ${process.version})`,
    );
    if (values.check && cost > READ_COST_LIMIT) {
      console.error(`over the ${READ_COST_LIMIT * 100} % limit`);
      return 1;
    }
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
