// Long bulk runs (a newsletter to thousands of readers) allocate a little garbage per
// item and hold each item across network waits, so much of it outlives a young-generation
// collection and lands in the old generation. V8 lets the old generation grow to 150–200
// MB before its first full collection, so a 10,000-reader send raised the process's RSS by
// 50–75 MiB although it keeps almost nothing (issue 20; decision 010, "Memory").
//
// A busy run asks for a full collection every few seconds instead, when the process was
// started with `--expose-gc` (`npm start` is): the old generation stays near the live heap.
// A collection of this server's heap takes tens of milliseconds, once per `everyMs` of
// continuous work; short runs (a password reset, a small send) never reach one. Without
// `--expose-gc` nothing happens and memory behaves as before.

export type Collect = () => void;

/** The collector V8 exposes under `--expose-gc`, if it does. */
export function exposedCollector(): Collect | null {
  const gc: unknown = Reflect.get(globalThis, "gc");
  return typeof gc === "function" ? () => Reflect.apply(gc, globalThis, []) : null;
}

export interface BulkCollector {
  /** Called after each piece of work of one run; collects when `everyMs` have passed since the run began or the last collection. */
  afterWork(): boolean;
}

export const BULK_GC_EVERY_MS = 5_000;

/** One run's pacer: create it when the run starts. */
export function bulkCollector(
  opts: { everyMs?: number; now?: () => number; collect?: Collect | null } = {},
): BulkCollector {
  const everyMs = opts.everyMs ?? BULK_GC_EVERY_MS;
  const now = opts.now ?? (() => performance.now());
  const collect = opts.collect === undefined ? exposedCollector() : opts.collect;
  let last = now();
  return {
    afterWork() {
      if (!collect) return false;
      const t = now();
      if (t - last < everyMs) return false;
      collect();
      // From the end of the collection: a slow one never makes the next come sooner.
      last = now();
      return true;
    },
  };
}
