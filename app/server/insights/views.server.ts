import { sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import { dayClock } from "../platform/day-clock.server.ts";
import { addressKey, visitorKey } from "../platform/quick-hash.server.ts";
import { isBotAgent } from "./bots.server.ts";

/** Who is reading: the client address and browser, never stored. */
export interface Visitor {
  ip: string;
  userAgent: string | null | undefined;
}

export interface ViewCounter {
  /**
   * Counts a view of `postId` unless this visitor was already counted for it
   * today (UTC) or is a bot. Synchronous and in memory: reading never waits on
   * the database. Returns whether the view was counted.
   */
  record(postId: string, visitor: Visitor): boolean;
  /** Views of `postId` counted here and not yet written. */
  pending(postId: string): number;
  /** Writes the accumulated increments now (one UPDATE per post). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; later views are ignored. */
  stop(): Promise<void>;
}

export interface ViewCounterOptions {
  /** Writes one batch of increments (post id → views); default: `writeViewIncrements(db, …)`. */
  write?: (increments: ReadonlyMap<string, number>) => Promise<void>;
  /** How often accumulated views are written. */
  intervalMs?: number;
  /** How many visitor/post/day keys are remembered; the oldest are forgotten first. */
  maxKeys?: number;
  now?: () => Date;
  /** A failed write (its increments are kept for the next flush). */
  onError?: (error: unknown) => void;
}

export const VIEW_FLUSH_INTERVAL_MS = 5_000;
const DEFAULT_MAX_KEYS = 50_000;
/**
 * Browsers (User-Agents) counted as separate visitors of one post from one address in a day.
 * A household or an office behind one address reads a post with a few browsers; past this
 * many it is one client naming a new browser per request to inflate the count (issue 45:
 * 300 User-Agents counted 300 views). A large shared address (a campus, a carrier's NAT)
 * loses some views of a post read by more than this many of its people in a day, which a view
 * count can live with.
 */
export const MAX_VIEWERS_PER_ADDRESS = 10;

/** Adds each post's views to `posts.viewCount`: one UPDATE per post, in one transaction. */
export async function writeViewIncrements(db: DB, increments: ReadonlyMap<string, number>): Promise<void> {
  if (increments.size === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [postId, n] of increments) {
      // Only the counter: a view is no edit (updatedAt and version stay).
      await trx
        .updateTable("posts")
        .set({ viewCount: sql<number>`"viewCount" + ${n}` })
        .where("id", "=", postId)
        .execute();
    }
  });
}

/**
 * View counting: once per visitor (address + browser) per post per UTC day, at most
 * MAX_VIEWERS_PER_ADDRESS visitors per address and post a day, bots skipped, counted in
 * memory and written in batches every few seconds and on stop.
 * The visitor keys are seeded hashes (quick-hash.server.ts) kept in a bounded set and forgotten when the
 * day changes. Each instance dedupes on its own, so behind several instances a
 * visitor may be counted once per instance; a crash loses at most one interval.
 */
export function createViewCounter(db: DB | null, options: ViewCounterOptions = {}): ViewCounter {
  const write =
    options.write ??
    ((increments: ReadonlyMap<string, number>) => {
      if (!db) throw new Error("createViewCounter needs a database or a write function");
      return writeViewIncrements(db, increments);
    });
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const today = dayClock(options.now);

  let pendingViews = new Map<string, number>();
  const seen = new Set<string>();
  // Visitors counted today per address and post (the address only as its in-process hash).
  const perAddress = new Map<string, number>();
  let seenDay = "";
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  const writeBatch = async () => {
    if (pendingViews.size === 0) return;
    const batch = pendingViews;
    pendingViews = new Map();
    try {
      await write(batch);
    } catch (error) {
      for (const [postId, n] of batch) pendingViews.set(postId, (pendingViews.get(postId) ?? 0) + n);
      options.onError?.(error);
    }
  };

  // Flushes run one after another, never two at once.
  const flush = () => {
    const next = chain.then(writeBatch);
    chain = next.catch(() => {});
    return next;
  };

  const timer = setInterval(() => void flush(), options.intervalMs ?? VIEW_FLUSH_INTERVAL_MS);
  timer.unref();

  return {
    record(postId, visitor) {
      if (stopped) return false;
      if (isBotAgent(visitor.userAgent)) return false;
      const ua = visitor.userAgent?.trim() ?? "";
      const day = today();
      if (day !== seenDay) {
        seen.clear();
        perAddress.clear();
        seenDay = day;
      }
      // The day is not in the key: the set is emptied when the day changes.
      const key = `${visitorKey(visitor.ip, ua)}\0${postId}`;
      if (seen.has(key)) return false;
      const address = `${addressKey(visitor.ip)}\0${postId}`;
      const viewers = perAddress.get(address) ?? 0;
      if (viewers >= MAX_VIEWERS_PER_ADDRESS) return false;
      if (seen.size >= maxKeys) {
        const oldest = seen.values().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      seen.add(key);
      // Bounded like `seen`: an address forgotten early only gets a fresh allowance.
      if (!perAddress.has(address) && perAddress.size >= maxKeys) {
        const oldest = perAddress.keys().next().value;
        if (oldest !== undefined) perAddress.delete(oldest);
      }
      perAddress.set(address, viewers + 1);
      pendingViews.set(postId, (pendingViews.get(postId) ?? 0) + 1);
      return true;
    },
    pending(postId) {
      return pendingViews.get(postId) ?? 0;
    },
    flush,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await flush();
    },
  };
}
