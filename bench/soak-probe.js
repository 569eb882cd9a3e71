// @ts-check
// Loaded into the server by `npm run soak` (node --import): every interval it prints
// one line with the event loop's delay over that interval and the process's memory,
// for the soak script to read. Not part of the product; nothing else loads it. Plain
// JavaScript, so the soaked process loads no TypeScript, like production.
import { monitorEventLoopDelay } from "node:perf_hooks";

const intervalMs = Number(process.env.SOAK_PROBE_INTERVAL_MS ?? 5000);
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

const timer = setInterval(() => {
  const line = {
    at: Date.now(),
    // The histogram is in nanoseconds.
    p99Ms: histogram.percentile(99) / 1e6,
    maxMs: histogram.max / 1e6,
    rssBytes: process.memoryUsage.rss(),
    heapUsedBytes: process.memoryUsage().heapUsed,
  };
  histogram.reset();
  process.stdout.write(`SOAK_PROBE ${JSON.stringify(line)}\n`);
}, intervalMs);
timer.unref();
