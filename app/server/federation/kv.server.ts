import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";

/** The stored form of a key: its JSON (arrays of strings sort and compare as text). */
export function encodeKey(key: KvKey): string {
  return JSON.stringify(key);
}

function decodeKey(text: string): KvKey | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((p) => typeof p === "string")) {
      return parsed as unknown as KvKey;
    }
  } catch {}
  return null;
}

function hasPrefix(key: KvKey, prefix: KvKey): boolean {
  return prefix.length <= key.length && prefix.every((part, i) => key[i] === part);
}

function expiry(options: KvStoreSetOptions | undefined, now: Date): string | null {
  if (!options?.ttl) return null;
  const ms = options.ttl.total("millisecond");
  return nowIso(new Date(now.getTime() + Math.max(0, ms)));
}

/**
 * Fedify's key–value store on our database (both dialects): one row per key, the value
 * as JSON, an optional expiry checked on read (expired rows are deleted as they are met).
 */
export class DatabaseKvStore implements KvStore {
  readonly #db: DB;
  readonly #now: () => Date;

  constructor(db: DB, opts: { now?: () => Date } = {}) {
    this.#db = db;
    this.#now = opts.now ?? (() => new Date());
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.#db
      .selectFrom("federationKv")
      .select(["value", "expiresAt"])
      .where("key", "=", encodeKey(key))
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.expiresAt !== null && row.expiresAt <= nowIso(this.#now())) {
      await this.delete(key);
      return undefined;
    }
    return JSON.parse(row.value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const row = { key: encodeKey(key), value: JSON.stringify(value ?? null), expiresAt: expiry(options, this.#now()) };
    await this.#db
      .insertInto("federationKv")
      .values(row)
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: row.value, expiresAt: row.expiresAt }))
      .execute();
  }

  async delete(key: KvKey): Promise<void> {
    await this.#db.deleteFrom("federationKv").where("key", "=", encodeKey(key)).execute();
  }

  /** Compare-and-swap in one conditional write: two callers can never both succeed. */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const encoded = encodeKey(key);
    const value = JSON.stringify(newValue ?? null);
    const expiresAt = expiry(options, this.#now());
    const now = nowIso(this.#now());
    if (expectedValue === undefined) {
      // Absent (or expired) is what the caller expects.
      await this.#db.deleteFrom("federationKv").where("key", "=", encoded).where("expiresAt", "<=", now).execute();
      const inserted = await this.#db
        .insertInto("federationKv")
        .values({ key: encoded, value, expiresAt })
        .onConflict((oc) => oc.column("key").doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    }
    const updated = await this.#db
      .updateTable("federationKv")
      .set({ value, expiresAt })
      .where("key", "=", encoded)
      .where("value", "=", JSON.stringify(expectedValue))
      .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", now)]))
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const now = nowIso(this.#now());
    let query = this.#db
      .selectFrom("federationKv")
      .select(["key", "value"])
      .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", now)]))
      .orderBy("key");
    if (prefix) {
      const head = encodeKey(prefix).slice(0, -1);
      const like = `${head.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<boolean>`${sql.ref("key")} like ${like} escape '\\'`);
    }
    for (const row of await query.execute()) {
      const key = decodeKey(row.key);
      // LIKE folds case on SQLite: the exact prefix is checked here.
      if (key === null || (prefix && !hasPrefix(key, prefix))) continue;
      yield { key, value: JSON.parse(row.value) as unknown };
    }
  }
}
