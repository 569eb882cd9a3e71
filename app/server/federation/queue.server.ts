import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from "@fedify/fedify";
import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type LeasedJob, startLeasedJob } from "../jobs/lease.server.ts";
import { type BulkCollector, bulkCollector } from "../platform/bulk-gc.server.ts";
import { newId } from "../platform/ids.server.ts";

export const FEDERATION_LEASE = "federation-queue";

export interface QueueOptions {
  log: Logger;
  /** How often the lease holder looks for due messages (a new message also wakes it). */
  pollMs?: number;
  /** How long a message stays locked while handled; a worker that died leaves it due again after this. */
  lockMs?: number;
  /** Messages handled at once. */
  concurrency?: number;
  /** Attempts before a message whose handler keeps throwing is given up (kept with its error). */
  maxAttempts?: number;
  /** The first retry's delay; each further one doubles, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  holder?: string;
  now?: () => Date;
  /** How a drain collects its garbage (default: every few seconds, under `--expose-gc`). */
  collector?: () => BulkCollector;
}

let sequence = 0;

/** Messages written by one INSERT. */
const ENQUEUE_CHUNK = 100;

interface PendingEnqueue {
  message: unknown;
  options: MessageQueueEnqueueOptions | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A message id that sorts in the order messages were queued (time, then this process's
 * counter), so messages sharing an ordering key and a due time run in that order.
 */
export function sortableId(now: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(now.getTime()).padStart(14, "0")}${String(sequence).padStart(6, "0")}${newId().slice(0, 8)}`;
}

/** The delay before attempt `attempts + 1`: exponential, capped. */
export function backoffDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

export function delayMs(options: MessageQueueEnqueueOptions | undefined): number {
  return options?.delay ? Math.max(0, options.delay.total("millisecond")) : 0;
}

/**
 * Fedify's message queue on our database: every message is a row until it has been
 * handled, so a restart (or `kill -9`) loses nothing. Only the holder of the
 * "federation-queue" job lease handles messages; each is claimed by one conditional
 * UPDATE (its lock), so even two holders in a lease hand-over never run it twice at
 * once. A handler that throws is retried with exponential backoff, then kept as failed.
 * Fedify's own retry policy (a delivery that failed, re-enqueued with a delay) sits on top.
 */
export class DatabaseMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  readonly #db: DB;
  readonly #opts: Required<Omit<QueueOptions, "holder">> & { holder?: string };
  #job: LeasedJob | null = null;
  #pending: PendingEnqueue[] = [];

  constructor(db: DB, opts: QueueOptions) {
    this.#db = db;
    this.#opts = {
      pollMs: 1000,
      lockMs: 5 * 60_000,
      concurrency: 8,
      maxAttempts: 8,
      backoffMs: 30_000,
      maxBackoffMs: 6 * 3_600_000,
      now: () => new Date(),
      collector: bulkCollector,
      ...opts,
    };
  }

  /**
   * One message. Fedify enqueues a post's deliveries one call each when they carry an ordering
   * key (10,000 calls at once for 10,000 inboxes): the calls of one turn of the event loop are
   * written together, a chunk at a time, each message serialized only when its chunk is written,
   * so neither 10,000 JSON strings nor 10,000 statements are ever held at once. Each call
   * resolves once its own row is stored.
   */
  enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ message, options, resolve, reject });
      if (this.#pending.length === 1) setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    let poke = false;
    while (batch.length > 0) {
      // Taken out of the batch: a chunk's messages are let go of once they are stored.
      const chunk = batch.splice(0, ENQUEUE_CHUNK);
      try {
        await this.#insert(chunk.map((p) => ({ message: p.message, options: p.options })));
        for (const p of chunk) p.resolve();
        poke ||= chunk.some((p) => delayMs(p.options) === 0);
      } catch (error) {
        for (const p of chunk) p.reject(error);
      }
    }
    if (poke) this.#job?.poke();
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    if (messages.length === 0) return;
    for (let i = 0; i < messages.length; i += ENQUEUE_CHUNK) {
      await this.#insert(messages.slice(i, i + ENQUEUE_CHUNK).map((message) => ({ message, options })));
    }
    if (delayMs(options) === 0) this.#job?.poke();
  }

  /** One INSERT (a chunk keeps it under both drivers' parameter limits). */
  async #insert(
    items: ReadonlyArray<{ message: unknown; options: MessageQueueEnqueueOptions | undefined }>,
  ): Promise<void> {
    const now = this.#opts.now();
    const rows = items.map(({ message, options }) => ({
      id: sortableId(now),
      message: JSON.stringify(message),
      orderingKey: options?.orderingKey ?? null,
      runAt: nowIso(new Date(now.getTime() + delayMs(options))),
      createdAt: nowIso(now),
    }));
    await this.#db.insertInto("federationQueue").values(rows).execute();
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const now = nowIso(this.#opts.now());
    const row = await this.#db
      .selectFrom("federationQueue")
      .select((eb) => [
        eb.fn.countAll<number | string>().as("queued"),
        eb.fn.sum<number | string | null>(eb.case().when("runAt", "<=", now).then(1).else(0).end()).as("ready"),
      ])
      .where("attempts", "<", this.#opts.maxAttempts)
      .executeTakeFirstOrThrow();
    const queued = Number(row.queued);
    const ready = Number(row.ready ?? 0);
    return { queued, ready, delayed: queued - ready };
  }

  /** Handles due messages until the signal aborts; resolves then. */
  listen(handler: (message: unknown) => Promise<void> | void, options: MessageQueueListenOptions = {}): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve();
    const job = startLeasedJob(this.#db, this.#opts.log, {
      name: FEDERATION_LEASE,
      intervalMs: this.#opts.pollMs,
      ...(this.#opts.holder ? { holder: this.#opts.holder } : {}),
      run: async () => {
        await this.drain(handler);
      },
    });
    this.#job = job;
    return new Promise((resolve) => {
      const stop = () => {
        this.#job = null;
        void job.stop().then(resolve);
      };
      if (!signal) return;
      signal.addEventListener("abort", stop, { once: true });
    });
  }

  /** The worker's run (tests call it too): handles every due message, a batch at a time. */
  async drain(handler: (message: unknown) => Promise<void> | void): Promise<number> {
    let handled = 0;
    // Thousands of deliveries after a post collect their garbage as they go.
    const collector = this.#opts.collector();
    for (;;) {
      const claimed = await this.#claim();
      if (claimed.length === 0) return handled;
      // Messages sharing an ordering key run one after another; others side by side.
      const lanes = new Map<string, typeof claimed>();
      for (const row of claimed) {
        const lane = row.orderingKey ?? row.id;
        lanes.set(lane, [...(lanes.get(lane) ?? []), row]);
      }
      // At most `concurrency` at once (each delivery holds its parsed message, keys and request).
      const waiting = [...lanes.values()];
      const worker = async (): Promise<void> => {
        for (let lane = waiting.shift(); lane; lane = waiting.shift()) {
          for (const row of lane) await this.#handle(row, handler);
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.#opts.concurrency, waiting.length) }, worker));
      handled += claimed.length;
      collector.afterWork();
    }
  }

  async #claim(): Promise<Array<{ id: string; message: string; orderingKey: string | null; attempts: number }>> {
    const now = this.#opts.now();
    const at = nowIso(now);
    const due = await this.#db
      .selectFrom("federationQueue")
      .select(["id", "message", "orderingKey", "attempts"])
      .where("runAt", "<=", at)
      .where("attempts", "<", this.#opts.maxAttempts)
      .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<=", at)]))
      .orderBy("runAt")
      .orderBy("id")
      .limit(this.#opts.concurrency * 4)
      .execute();
    const lockedUntil = nowIso(new Date(now.getTime() + this.#opts.lockMs));
    const claimed: typeof due = [];
    for (const row of due) {
      const result = await this.#db
        .updateTable("federationQueue")
        .set({ lockedUntil })
        .where("id", "=", row.id)
        .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<=", at)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push(row);
    }
    return claimed;
  }

  async #handle(
    row: { id: string; message: string; attempts: number },
    handler: (message: unknown) => Promise<void> | void,
  ): Promise<void> {
    try {
      await handler(JSON.parse(row.message));
      await this.#db.deleteFrom("federationQueue").where("id", "=", row.id).execute();
    } catch (error) {
      const attempts = row.attempts + 1;
      const delay = backoffDelay(attempts, this.#opts.backoffMs, this.#opts.maxBackoffMs);
      const message = error instanceof Error ? error.message : String(error);
      this.#opts.log.warn({ err: error, id: row.id, attempts }, "federation queue message failed");
      await this.#db
        .updateTable("federationQueue")
        .set({
          attempts,
          lockedUntil: null,
          lastError: message.slice(0, 1000),
          runAt: nowIso(new Date(this.#opts.now().getTime() + delay)),
        })
        .where("id", "=", row.id)
        .execute();
    }
  }
}
