// One page under load with autocannon, and one cold request.
import autocannon from "autocannon";

export interface LoadOptions {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of load before the measured run, not counted (0: none). */
  warmup: number;
  /** A fixed number of requests instead of `duration` (and no warm-up): the smoke test's way to finish fast but never empty. */
  amount?: number;
  /** Paths each connection asks for in turn, instead of the URL's own (a whole site under load). */
  paths?: readonly string[];
  /** The User-Agent sent with every request; none when absent. */
  userAgent?: string;
}

/**
 * A desktop browser's User-Agent. Readers' requests carry one, and a request
 * without one (or with a bot's) is not counted as a read: with it, a run measures
 * the reader's path, view counting and Insights included.
 */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

export interface LoadResult {
  /** Completed requests per second over the measured run. */
  requestsPerSec: number;
  /** Latency percentiles of the 2xx answers, in milliseconds (autocannon's timings, not rounded). */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  /** Connection errors and timeouts (10 s). */
  errors: number;
  /** Of which timeouts. */
  timeouts: number;
  non2xx: number;
  /** Body bytes per second. */
  bytesPerSec: number;
}

/** The value at percentile `p` (0–100) of sorted `values` (nearest rank); 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Loads `url` with autocannon. Latencies come from its per-response events rather
 * than its histogram, which keeps whole milliseconds only (a static page answers
 * in well under one).
 */
export async function loadPage(url: string, opts: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let bytes = 0;
  const instance = autocannon({
    url,
    ...(opts.userAgent ? { headers: { "user-agent": opts.userAgent } } : {}),
    connections: opts.connections,
    duration: opts.duration,
    ...(opts.amount ? { amount: opts.amount } : {}),
    ...(opts.paths ? { requests: opts.paths.map((p) => ({ method: "GET" as const, path: p })) } : {}),
    timeout: 10,
    // The run stops on a sample tick: with the default 1 s, a 0.3 s run would take 1 s.
    sampleInt: 100,
    ...(opts.warmup > 0 && !opts.amount ? { warmup: { connections: opts.connections, duration: opts.warmup } } : {}),
  });
  instance.on("response", (_client, statusCode, size, ms) => {
    bytes += size;
    if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const seconds = result.duration > 0 ? result.duration : opts.duration;
  const requests = result.requests.total;
  return {
    requestsPerSec: round(requests / seconds, 1),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    meanMs: round(latencies.reduce((sum, ms) => sum + ms, 0) / Math.max(1, latencies.length)),
    requests,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bytesPerSec: Math.round(bytes / seconds),
  };
}

export interface ColdResult {
  status: number;
  ms: number;
  contentType: string;
  body: Buffer;
}

/** One request, timed until the whole body has arrived. */
export async function timedGet(url: string): Promise<ColdResult> {
  const started = performance.now();
  // Like autocannon: no compression, so the saved page is what the load run receives.
  const res = await fetch(url, { redirect: "manual", headers: { "accept-encoding": "identity" } });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    ms: round(performance.now() - started),
    contentType: res.headers.get("content-type") ?? "application/octet-stream",
    body,
  };
}
