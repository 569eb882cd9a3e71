import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  RETRY_BASE_DELAY_MS,
  RETRY_MAX_DELAY_MS,
  STORAGE_OPERATION_DEADLINE_MS,
  STORAGE_UPLOAD_DEADLINE_MS,
  withRetry,
} from "./retry.server.ts";
import { StorageError } from "./types.server.ts";

/** A clock that only moves when the retry loop sleeps, recording every wait. */
function fakeTime(random = () => 1) {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    timing: {
      now: () => t,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        t += ms;
      },
      random,
    },
  };
}

const transient = () => new StorageError("unknown", "busy", { transient: true });

async function caught(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StorageError) return error;
    throw error;
  }
  throw new Error("expected a StorageError");
}

describe("withRetry", () => {
  it("uses the spec's deadlines: 2 minutes per operation, 10 per upload", () => {
    expect(STORAGE_OPERATION_DEADLINE_MS).toBe(120_000);
    expect(STORAGE_UPLOAD_DEADLINE_MS).toBe(600_000);
  });

  it("returns the first success without sleeping", async () => {
    const { sleeps, timing } = fakeTime();
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        return "ok";
      },
      { deadlineMs: 10_000, ...timing },
    );
    expect(result).toBe("ok");
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("retries transient errors with a wait that doubles from the base", async () => {
    const { sleeps, timing } = fakeTime(() => 1);
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls <= 5) throw transient();
        return calls;
      },
      { deadlineMs: 120_000, ...timing },
    );
    expect(result).toBe(6);
    expect(sleeps).toEqual([200, 400, 800, 1600, 3200]);
  });

  it("jitters each wait between half and all of its ceiling, and caps it", () => {
    expect(backoffDelay(0, () => 0)).toBe(RETRY_BASE_DELAY_MS / 2);
    expect(backoffDelay(0, () => 1)).toBe(RETRY_BASE_DELAY_MS);
    expect(backoffDelay(3, () => 0)).toBe(800);
    for (let attempt = 0; attempt < 12; attempt++) {
      const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** attempt);
      const d = backoffDelay(attempt);
      expect(d).toBeGreaterThanOrEqual(ceiling / 2);
      expect(d).toBeLessThanOrEqual(ceiling);
    }
    expect(backoffDelay(30, () => 1)).toBe(RETRY_MAX_DELAY_MS);
  });

  it("gives up with retry-limit-exceeded rather than sleep past the deadline", async () => {
    const { sleeps, timing } = fakeTime(() => 1);
    let calls = 0;
    const last = transient();
    const error = await caught(
      withRetry(
        async () => {
          calls++;
          throw last;
        },
        { deadlineMs: 30_000, ...timing },
      ),
    );
    expect(error.code).toBe("retry-limit-exceeded");
    expect(error.status).toBe(503);
    expect(error.cause).toBe(last);
    // 200+400+…+6400 = 12 700, then 10 000 (capped) = 22 700; the next 10 000 would pass 30 000.
    expect(sleeps).toEqual([200, 400, 800, 1600, 3200, 6400, 10_000]);
    expect(calls).toBe(sleeps.length + 1);
  });

  it("does not retry a non-transient StorageError or a foreign error", async () => {
    const { sleeps, timing } = fakeTime();
    const denied = new StorageError("unauthorized", "no");
    let calls = 0;
    const error = await caught(
      withRetry(
        async () => {
          calls++;
          throw denied;
        },
        { deadlineMs: 10_000, ...timing },
      ),
    );
    expect(error).toBe(denied);
    expect(calls).toBe(1);

    const bug = new TypeError("bug");
    await expect(
      withRetry(
        async () => {
          throw bug;
        },
        { deadlineMs: 10_000, ...timing },
      ),
    ).rejects.toBe(bug);
    expect(sleeps).toEqual([]);
  });

  it("answers canceled without calling the operation when already aborted", async () => {
    const { timing } = fakeTime();
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const error = await caught(
      withRetry(
        async () => {
          calls++;
        },
        { deadlineMs: 10_000, signal: controller.signal, ...timing },
      ),
    );
    expect(error.code).toBe("canceled");
    expect(calls).toBe(0);
  });

  it("passes the abort to the running operation and answers canceled", async () => {
    const { timing } = fakeTime();
    const controller = new AbortController();
    let seen: AbortSignal | null = null;
    const error = await caught(
      withRetry(
        async (signal) => {
          seen = signal;
          controller.abort();
          throw new Error("request aborted");
        },
        { deadlineMs: 10_000, signal: controller.signal, ...timing },
      ),
    );
    expect(error.code).toBe("canceled");
    expect(seen).not.toBeNull();
    expect((seen as AbortSignal | null)?.aborted).toBe(true);
  });

  it("stops waiting between attempts when aborted (real sleep)", async () => {
    const controller = new AbortController();
    let calls = 0;
    const error = await caught(
      withRetry(
        async () => {
          calls++;
          setImmediate(() => controller.abort());
          throw transient();
        },
        { deadlineMs: 60_000, signal: controller.signal },
      ),
    );
    expect(error.code).toBe("canceled");
    expect(calls).toBe(1);
  });

  it("aborts an attempt that hangs past the deadline", async () => {
    const error = await caught(
      withRetry(
        (signal) =>
          new Promise((_, reject) => {
            signal.addEventListener("abort", () => reject(new Error("aborted")));
          }),
        { deadlineMs: 20 },
      ),
    );
    expect(error.code).toBe("retry-limit-exceeded");
  });
});
