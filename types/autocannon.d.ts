// autocannon ships no types (and @types/autocannon describes 7.x); this covers
// the part bench/ uses of autocannon 9's programmatic API.
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds; fractions allowed. */
    duration?: number;
    /** Requests to make, instead of a duration. */
    amount?: number;
    pipelining?: number;
    /** Milliseconds between samples; the run ends on a sample, so it also rounds the duration up. Default 1000. */
    sampleInt?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    headers?: Record<string, string>;
    /** A run before the measured one, with its own connections and duration. */
    warmup?: { connections?: number; duration?: number };
    /** Requests each connection makes in turn, round and round. */
    requests?: RequestSpec[];
  }

  /** One request of a sequence: fixed fields, or `setupRequest` building it each time. */
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface RequestSpec extends Request {
    setupRequest?: (request: Request) => Request;
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p99: number;
  }

  export interface Result {
    url: string;
    connections: number;
    /** Seconds the measured run took. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    /** Per-second request counts; `total` is every completed request. */
    requests: Histogram & { sent: number };
    /** Milliseconds, recorded in whole milliseconds, 2xx answers only. */
    latency: Histogram;
    throughput: Histogram;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    /** Every answer of the measured run: status, body bytes and milliseconds (not rounded). */
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
