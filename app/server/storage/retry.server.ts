import { setTimeout as delay } from "node:timers/promises";
import { StorageError } from "./types.server.ts";

/** Spec section 9: storage operations retry for up to 2 minutes, uploads for up to 10. */
export const STORAGE_OPERATION_DEADLINE_MS = 2 * 60 * 1000;
export const STORAGE_UPLOAD_DEADLINE_MS = 10 * 60 * 1000;

export const RETRY_BASE_DELAY_MS = 200;
export const RETRY_MAX_DELAY_MS = 10_000;

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The parts of retrying that tests replace so they run instantly and deterministically. */
export interface RetryTiming {
  sleep?: Sleep;
  /** Clock for the deadline, in milliseconds. */
  now?: () => number;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

export interface RetryOptions extends RetryTiming {
  deadlineMs: number;
  signal?: AbortSignal;
}

const realSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, { signal });
};

/**
 * The wait before retry number `attempt` (0 for the first retry): doubles from
 * the base up to the cap, with "equal jitter" (half fixed, half random) so that
 * instances failing together do not retry in lockstep, yet the wait still grows.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Runs `op` until it succeeds, retrying only transient StorageErrors, until the
 * deadline. The signal handed to `op` fires when the caller cancels or the
 * deadline passes, so a hung request does not outlive the deadline.
 */
export async function withRetry<T>(op: (signal: AbortSignal) => Promise<T>, options: RetryOptions): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const caller = options.signal;
  const start = now();

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), Math.max(0, options.deadlineMs));
  timer.unref();
  const signal = caller ? AbortSignal.any([caller, deadline.signal]) : deadline.signal;

  // Which signal fired decides the answer, whatever error the aborted call threw.
  const stopped = (cause: unknown): StorageError | null => {
    if (caller?.aborted) return new StorageError("canceled", "The storage operation was canceled.", { cause });
    if (deadline.signal.aborted) return exceeded(cause);
    return null;
  };

  try {
    for (let attempt = 0; ; attempt++) {
      const before = stopped(undefined);
      if (before) throw before;
      let lastError: StorageError;
      try {
        return await op(signal);
      } catch (error) {
        const stop = stopped(error);
        if (stop) throw stop;
        if (!(error instanceof StorageError) || !error.transient) throw error;
        lastError = error;
      }
      const wait = backoffDelay(attempt, random);
      // Give up now rather than sleep past the deadline into a doomed last try.
      if (now() - start + wait >= options.deadlineMs) throw exceeded(lastError);
      try {
        await sleep(wait, signal);
      } catch (error) {
        throw stopped(error) ?? error;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

function exceeded(cause: unknown): StorageError {
  return new StorageError("retry-limit-exceeded", "The storage service did not answer in time.", { cause });
}
