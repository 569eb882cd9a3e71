import { sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";

/** How often each instance looks for a newer content version (spec: changes visible within 1 s). */
export const CONTENT_VERSION_POLL_MS = 400;

/** Records that public content changed; every instance drops its rendered pages when it notices. */
export async function bumpContentVersion(db: DB): Promise<void> {
  await db
    .updateTable("contentVersion")
    .set({ version: sql<number>`"version" + 1`, updatedAt: nowIso() })
    .where("id", "=", 1)
    .execute();
}

export async function readContentVersion(db: DB): Promise<number> {
  const row = await db.selectFrom("contentVersion").select("version").where("id", "=", 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Where the version lives, shared by every instance: the database, or Redis when
 * REDIS_URL is set. `read` never answers 0 (0 means "unknown" to the watcher).
 */
export interface ContentVersionStore {
  bump(): Promise<void>;
  read(): Promise<number>;
}

export function dbContentVersion(db: DB): ContentVersionStore {
  return { bump: () => bumpContentVersion(db), read: () => readContentVersion(db) };
}

export interface ContentVersionWatch {
  /** The version last seen (0 before the first read). */
  current(): number;
  /** Reads now and reports a change at once (after this instance's own writes). */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Polls the version; `onChange` runs whenever it differs from the last value
 * seen. A failed read (database down) is skipped, and while the version is
 * unknown the caller should not serve from its cache.
 */
export function watchContentVersion(
  store: ContentVersionStore,
  opts: { intervalMs?: number; onChange(version: number): void; onError?(error: unknown): void },
): ContentVersionWatch {
  let seen = 0;
  let running: Promise<void> | null = null;
  const read = (): Promise<void> => {
    running ??= store
      .read()
      .then((version) => {
        if (version !== seen) {
          seen = version;
          opts.onChange(version);
        }
      })
      .catch((error: unknown) => {
        seen = 0;
        opts.onChange(0);
        opts.onError?.(error);
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void read(), opts.intervalMs ?? CONTENT_VERSION_POLL_MS);
  timer.unref();
  void read();
  return {
    current: () => seen,
    check: read,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
