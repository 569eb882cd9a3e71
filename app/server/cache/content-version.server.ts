import { sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";

/** How often each instance looks for a newer content version (spec: changes visible within 1 s). */
export const CONTENT_VERSION_POLL_MS = 400;

/**
 * What a content change made stale: every page ("all"), or only the pages that
 * carry one of these tags (a comment on a post: `post:<id>`, see page-tags.server.ts).
 */
export type ChangeTags = "all" | readonly string[];

/** How many changes the stores remember; an instance further behind drops every page. */
export const CHANGE_LOG_SIZE = 500;

/** One change as the stores keep it: "*" for all, else the tags separated by spaces. */
export function encodeTags(tags: ChangeTags): string {
  if (tags === "all") return "*";
  const clean = tags.filter((tag) => /^[\w:-]+$/.test(tag));
  return clean.length === tags.length && clean.length > 0 ? clean.join(" ") : "*";
}

export function decodeTags(text: string): ChangeTags {
  return text === "*" || text.trim() === "" ? "all" : text.split(" ");
}

/** Merges changes; "all" wins. */
export function mergeTags(changes: readonly ChangeTags[]): ChangeTags {
  const tags = new Set<string>();
  for (const change of changes) {
    if (change === "all") return "all";
    for (const tag of change) tags.add(tag);
  }
  return [...tags];
}

/** Records that public content changed; every instance drops the pages `tags` names when it notices. */
export async function bumpContentVersion(db: DB, tags: ChangeTags = "all"): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("contentVersion")
      .set({ version: sql<number>`"version" + 1`, updatedAt: nowIso() })
      .where("id", "=", 1)
      .returning("version")
      .executeTakeFirst();
    if (!row) return;
    const version = Number(row.version);
    await trx
      .insertInto("contentChanges")
      .values({ version, tags: encodeTags(tags), createdAt: nowIso() })
      .execute();
    await trx
      .deleteFrom("contentChanges")
      .where("version", "<=", version - CHANGE_LOG_SIZE)
      .execute();
  });
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
  bump(tags?: ChangeTags): Promise<void>;
  read(): Promise<number>;
  /**
   * The changes after version `after` up to `upTo`, oldest first. Fewer than
   * `upTo - after` when the oldest were forgotten (the watcher then drops everything).
   */
  changes(after: number, upTo: number): Promise<ChangeTags[]>;
}

export function dbContentVersion(db: DB): ContentVersionStore {
  return {
    bump: (tags) => bumpContentVersion(db, tags),
    read: () => readContentVersion(db),
    async changes(after, upTo) {
      const rows = await db
        .selectFrom("contentChanges")
        .select("tags")
        .where("version", ">", after)
        .where("version", "<=", upTo)
        .orderBy("version")
        .execute();
      return rows.map((row) => decodeTags(row.tags));
    },
  };
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
 * seen, with what changed in between ("all" when that is not known: the first
 * read, a store that failed, a gap longer than the store remembers). A failed read
 * (database down) is skipped, and while the version is unknown the caller should
 * not serve from its cache.
 */
export function watchContentVersion(
  store: ContentVersionStore,
  opts: {
    intervalMs?: number;
    onChange(version: number, tags: ChangeTags): void;
    onError?(error: unknown): void;
  },
): ContentVersionWatch {
  let seen = 0;
  let running: Promise<void> | null = null;
  const whatChanged = async (from: number, to: number): Promise<ChangeTags> => {
    if (from <= 0 || to < from) return "all";
    const changes = await store.changes(from, to);
    return changes.length === to - from ? mergeTags(changes) : "all";
  };
  const read = (): Promise<void> => {
    running ??= store
      .read()
      .then(async (version) => {
        if (version === seen) return;
        const tags = await whatChanged(seen, version);
        seen = version;
        opts.onChange(version, tags);
      })
      .catch((error: unknown) => {
        seen = 0;
        opts.onChange(0, "all");
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
