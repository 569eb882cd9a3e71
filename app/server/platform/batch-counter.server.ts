/**
 * Counts in memory and writes the sums in batches: every few seconds, on
 * demand, and on stop. The same pattern as post views (views.server.ts), for
 * any counter whose exact timing does not matter (ad impressions).
 */
export interface BatchCounter {
  /** Adds `n` to `key`; ignored after stop. */
  add(key: string, n?: number): void;
  /** What was added to `key` and not yet written. */
  pending(key: string): number;
  /** Writes the accumulated sums now; a failed write keeps them for the next flush. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  stop(): Promise<void>;
}

export interface BatchCounterOptions {
  /** Writes one batch (key → amount). */
  write: (increments: ReadonlyMap<string, number>) => Promise<void>;
  intervalMs?: number;
  /** A failed write (its increments are kept for the next flush). */
  onError?: (error: unknown) => void;
}

export const BATCH_FLUSH_INTERVAL_MS = 5_000;

export function createBatchCounter(options: BatchCounterOptions): BatchCounter {
  let pendingSums = new Map<string, number>();
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  const writeBatch = async () => {
    if (pendingSums.size === 0) return;
    const batch = pendingSums;
    pendingSums = new Map();
    try {
      await options.write(batch);
    } catch (error) {
      for (const [key, n] of batch) pendingSums.set(key, (pendingSums.get(key) ?? 0) + n);
      options.onError?.(error);
    }
  };

  // Flushes run one after another, never two at once.
  const flush = () => {
    const next = chain.then(writeBatch);
    chain = next.catch(() => {});
    return next;
  };

  const timer = setInterval(() => void flush(), options.intervalMs ?? BATCH_FLUSH_INTERVAL_MS);
  timer.unref();

  return {
    add(key, n = 1) {
      if (stopped) return;
      pendingSums.set(key, (pendingSums.get(key) ?? 0) + n);
    },
    pending(key) {
      return pendingSums.get(key) ?? 0;
    },
    flush,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await flush();
    },
  };
}
