import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type BulkCollector, bulkCollector } from "../platform/bulk-gc.server.ts";

/** This process, as lease holders are named: host, pid and a random part (pids repeat across hosts). */
export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/**
 * Takes or renews the lease on `name` for `ttlMs`; true when this holder has it.
 * One conditional UPDATE decides: the row changes only when the lease is ours or
 * has expired, so two instances can never both get it.
 */
export async function acquireLease(
  db: DB,
  name: string,
  holder: string,
  ttlMs: number,
  now: Date = new Date(),
): Promise<boolean> {
  const at = nowIso(now);
  const until = nowIso(new Date(now.getTime() + ttlMs));
  await db
    .insertInto("jobLeases")
    .values({ name, holder, expiresAt: until, updatedAt: at })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const result = await db
    .updateTable("jobLeases")
    .set({ holder, expiresAt: until, updatedAt: at })
    .where("name", "=", name)
    .where((eb) => eb.or([eb("holder", "=", holder), eb("expiresAt", "<=", at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease up at once (a clean shutdown), so another instance need not wait for it to expire. */
export async function releaseLease(db: DB, name: string, holder: string): Promise<void> {
  await db
    .updateTable("jobLeases")
    .set({ expiresAt: nowIso(new Date(0)), updatedAt: nowIso() })
    .where("name", "=", name)
    .where("holder", "=", holder)
    .execute();
}

export async function leaseHolder(db: DB, name: string): Promise<{ holder: string; expiresAt: string } | null> {
  const row = await db
    .selectFrom("jobLeases")
    .select(["holder", "expiresAt"])
    .where("name", "=", name)
    .executeTakeFirst();
  return row ?? null;
}

export interface LeasedJob {
  /** Runs at once (after a run in progress, if any), not waiting for the timer. */
  poke(): void;
  /** Stops the timer, waits for a run in progress and gives the lease up. */
  stop(): Promise<void>;
  /** The run in progress, if any (tests). */
  idle(): Promise<void>;
}

/**
 * Runs `run` now and every `intervalMs`, never two runs at once, and on one instance
 * only: the holder of the lease `name`, renewed on every run and valid for three
 * intervals, so a crashed holder is replaced within three intervals.
 */
export function startLeasedJob(
  db: DB,
  log: Logger,
  opts: {
    name: string;
    intervalMs: number;
    holder?: string;
    run: () => Promise<void>;
    /** Waits this long after the start before the first run (a poke runs it sooner); default: at once. */
    firstRunAfterMs?: number;
  },
): LeasedJob {
  const { name, intervalMs, holder = INSTANCE_ID, run, firstRunAfterMs = 0 } = opts;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = acquireLease(db, name, holder, intervalMs * 3)
      .then((held) => (held ? run() : undefined))
      .catch((error: unknown) => log.error({ err: error, job: name }, "background job failed"))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  let timer: ReturnType<typeof setInterval> | ReturnType<typeof setTimeout>;
  if (firstRunAfterMs > 0) {
    timer = setTimeout(() => {
      tick();
      if (stopped) return;
      timer = setInterval(tick, intervalMs);
      timer.unref();
    }, firstRunAfterMs);
  } else {
    tick();
    timer = setInterval(tick, intervalMs);
  }
  timer.unref();
  return {
    poke() {
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(timer);
      await running;
      await releaseLease(db, name, holder).catch(() => {});
    },
    async idle() {
      while (running) await running;
    },
  };
}

/**
 * A leased job that works through a queue one chunk (one transaction) at a time:
 * `nextChunk` does one and says whether there is nothing to do ("idle"), a piece of
 * work just finished ("done"), or there is more. The lease is renewed between chunks,
 * so a long run keeps it and no other instance works beside it, and a stop is honoured
 * between chunks, so a clean stop and a kill -9 both leave the work at a committed
 * cursor for the next holder. A chunk that throws ends the run (`onError` records the
 * failure); the next run retries it.
 */
export function startChunkedJob(
  db: DB,
  log: Logger,
  opts: {
    name: string;
    intervalMs: number;
    holder?: string;
    nextChunk: () => Promise<"idle" | "progress" | "done">;
    onError: (error: unknown) => Promise<void>;
    /** How a long run collects its garbage (default: every few seconds, under `--expose-gc`). */
    collector?: () => BulkCollector;
  },
): LeasedJob {
  const { name, intervalMs, holder = INSTANCE_ID, nextChunk, onError, collector: newCollector = bulkCollector } = opts;
  let stopping = false;
  const job = startLeasedJob(db, log, {
    name,
    intervalMs,
    holder,
    run: async () => {
      let renewedAt = Date.now();
      // A long run (an import of thousands of posts) collects its garbage as it goes.
      const collector = newCollector();
      while (!stopping) {
        let outcome: Awaited<ReturnType<typeof nextChunk>>;
        try {
          outcome = await nextChunk();
        } catch (error) {
          await onError(error);
          return;
        }
        if (outcome === "idle") return;
        if (Date.now() - renewedAt > intervalMs) {
          if (!(await acquireLease(db, name, holder, intervalMs * 3))) return;
          renewedAt = Date.now();
        }
        collector.afterWork();
        // On SQLite every await above settles at once (the driver is synchronous): without a
        // turn of the event loop here, timers and requests (the CLI's progress line, the
        // server's readers) would wait for the whole run.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
  });
  return {
    poke: () => job.poke(),
    idle: () => job.idle(),
    async stop() {
      stopping = true;
      await job.stop();
    },
  };
}
