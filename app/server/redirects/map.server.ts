import type { ChangeTags } from "../cache/content-version.server.ts";
import type { DB } from "../db/db.server.ts";
import { type BatchCounter, createBatchCounter } from "../platform/batch-counter.server.ts";
import { loadRules, REDIRECTS_CHANGED, writeRedirectHits } from "./redirects.server.ts";
import { liveContentAt, liveRefOf } from "./reserved.server.ts";
import { type RedirectRule, RuleSet, usableRules } from "./rules.server.ts";

/** After a failed load, how long the last rules (or none) serve before the next try. */
export const RELOAD_RETRY_MS = 2_000;

/**
 * This instance's copy of the redirects table, for the HTTP step: read once, kept in
 * memory, and read again only after a change (its own admin's, or another instance's seen
 * through the content version). Hits are counted in memory and written in batches.
 */
export interface RedirectMap {
  /** The rules when the copy is fresh; null when it must be read first (`load`). */
  current(): RuleSet | null;
  /** Reads the table (one read at a time, shared by every request waiting for it). */
  load(): Promise<RuleSet>;
  /** Marks the copy stale: the next request reads the table again. */
  invalidate(): void;
  /** What a content change means for the copy: "all" (a restore, an import) or the redirects tag. */
  forget(tags: ChangeTags): void;
  /**
   * Whether `rule` starts at the address of a post, term, series or author that exists now:
   * a row written before that thing was (or before the writers checked) must not hide its page.
   * One indexed query, asked only for a row that matched and starts at such an address.
   */
  shadowsLivePage(rule: RedirectRule): Promise<boolean>;
  /** Counts a request answered by `rule`. */
  hit(rule: RedirectRule): void;
  /** Hits counted here and not yet written. */
  pendingHits(id: string): number;
  /** Writes the hits counted so far. */
  flush(): Promise<void>;
  /** Stops the hit timer and writes what is left. */
  stop(): Promise<void>;
}

const EMPTY = new RuleSet();

export function createRedirectMap(
  db: DB,
  options: {
    intervalMs?: number;
    now?: () => number;
    onError?: (error: unknown, what: "load" | "hits") => void;
  } = {},
): RedirectMap {
  const now = options.now ?? Date.now;
  let rules: RuleSet | null = null;
  let fresh = false;
  let generation = 0;
  let loading: Promise<RuleSet> | null = null;
  let retryAt = 0;

  const counter: BatchCounter = createBatchCounter({
    write: (increments) => writeRedirectHits(db, increments),
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    onError: (error) => options.onError?.(error, "hits"),
  });

  const load = (): Promise<RuleSet> => {
    if (loading) return loading;
    const started = generation;
    loading = loadRules(db)
      .then((rows) => {
        rules = usableRules(rows);
        // A change while reading: the copy may already be old, read again next time.
        fresh = started === generation;
        return rules;
      })
      .catch((error: unknown) => {
        options.onError?.(error, "load");
        retryAt = now() + RELOAD_RETRY_MS;
        throw error;
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  };

  const invalidate = () => {
    generation += 1;
    fresh = false;
    retryAt = 0;
  };

  return {
    current() {
      if (fresh && rules) return rules;
      // The table could not be read a moment ago: the last copy serves until the retry.
      if (now() < retryAt) return rules ?? EMPTY;
      return null;
    },
    load,
    invalidate,
    forget(tags) {
      if (tags === "all" || tags.some((tag) => (REDIRECTS_CHANGED as readonly string[]).includes(tag))) invalidate();
    },
    async shadowsLivePage(rule) {
      const ref = liveRefOf({ path: rule.fromPath, query: rule.fromQuery });
      return ref !== null && (await liveContentAt(db, ref));
    },
    hit(rule) {
      counter.add(rule.id);
    },
    pendingHits: (id) => counter.pending(id),
    flush: () => counter.flush(),
    stop: () => counter.stop(),
  };
}
