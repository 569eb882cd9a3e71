import type {
  KvKey,
  KvStore,
  KvStoreListEntry,
  KvStoreSetOptions,
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from "@fedify/fedify";
// Types only: the Redis client itself is loaded by shared-state when REDIS_URL is set.
import { bulkCollector } from "../platform/bulk-gc.server.ts";
import type { RedisClient } from "../shared-state/redis.server.ts";
import { encodeKey } from "./kv.server.ts";
import { backoffDelay, delayMs, type QueueOptions, sortableId } from "./queue.server.ts";

/** A Redis glob pattern matching `text` literally. */
function globLiteral(text: string): string {
  return text.replace(/[\\*?[\]^-]/g, (c) => `\\${c}`);
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

function ttlMs(options: KvStoreSetOptions | undefined): number | null {
  if (!options?.ttl) return null;
  return Math.max(1, Math.ceil(options.ttl.total("millisecond")));
}

/**
 * Compare-and-swap in one step. KEYS[1] the key; ARGV: now (ms), "1" when the caller
 * expects no value, the expected JSON, the new JSON, the expiry (ms, or "") and the TTL.
 * A value whose expiry (on the caller's clock) has passed counts as absent.
 */
const CAS = `
local cur = redis.call('HMGET', KEYS[1], 'v', 'e')
local live = cur[1] and (not cur[2] or tonumber(cur[2]) > tonumber(ARGV[1]))
if ARGV[2] == '1' then
  if live then return 0 end
elseif not live or cur[1] ~= ARGV[3] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'v', ARGV[4])
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'e', ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
end
return 1`;

/**
 * Fedify's key–value store in Redis: one hash per key (`<prefix>fedify:kv:<JSON key>`)
 * holding the value's JSON and, with a TTL, its expiry. Redis expires the key itself
 * (PEXPIRE); the expiry is also checked on read against our clock, as the database
 * version does. `list` scans the keys under the prefix (Fedify rarely lists).
 */
export class RedisKvStore implements KvStore {
  readonly #client: RedisClient;
  readonly #base: string;
  readonly #now: () => Date;

  constructor(client: RedisClient, prefix: string, opts: { now?: () => Date } = {}) {
    this.#client = client;
    this.#base = `${prefix}fedify:kv:`;
    this.#now = opts.now ?? (() => new Date());
  }

  #key(key: KvKey): string {
    return this.#base + encodeKey(key);
  }

  #live(expiry: string | null | undefined): boolean {
    return !expiry || Number(expiry) > this.#now().getTime();
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const [value, expiry] = await this.#client.hmGet(this.#key(key), ["v", "e"]);
    if (value === null || value === undefined || !this.#live(expiry)) return undefined;
    return JSON.parse(value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const k = this.#key(key);
    const ttl = ttlMs(options);
    const fields: Record<string, string> = { v: JSON.stringify(value ?? null) };
    if (ttl !== null) fields.e = String(this.#now().getTime() + ttl);
    const multi = this.#client.multi().del(k).hSet(k, fields);
    if (ttl !== null) multi.pExpire(k, ttl);
    await multi.exec();
  }

  async delete(key: KvKey): Promise<void> {
    await this.#client.del(this.#key(key));
  }

  /** Compare-and-swap in one Lua script: two callers can never both succeed. */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const now = this.#now().getTime();
    const ttl = ttlMs(options);
    const reply = await this.#client.eval(CAS, {
      keys: [this.#key(key)],
      arguments: [
        String(now),
        expectedValue === undefined ? "1" : "0",
        expectedValue === undefined ? "" : JSON.stringify(expectedValue),
        JSON.stringify(newValue ?? null),
        ttl === null ? "" : String(now + ttl),
        ttl === null ? "" : String(ttl),
      ],
    });
    return Number(reply) === 1;
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    // `["a","b"` matches ["a","b"] and every longer key starting with it (and a few more,
    // such as ["a","bc"]: the exact prefix is checked below).
    const head = prefix ? encodeKey(prefix).slice(0, -1) : "";
    const names: string[] = [];
    for await (const batch of this.#client.scanIterator({ MATCH: `${globLiteral(this.#base + head)}*`, COUNT: 500 })) {
      names.push(...batch);
    }
    names.sort();
    for (const name of names) {
      const key = decodeKey(name.slice(this.#base.length));
      if (key === null || (prefix && !(prefix.length <= key.length && prefix.every((p, i) => key[i] === p)))) continue;
      const [value, expiry] = await this.#client.hmGet(name, ["v", "e"]);
      if (value === null || value === undefined || !this.#live(expiry)) continue;
      yield { key, value: JSON.parse(value) as unknown };
    }
  }
}

/**
 * Claims due messages for one consumer, atomically.
 * KEYS: due (zset id → due ms), held (zset id → lease end), keys (hash id → ordering
 * key), lanes (hash ordering key → lease end).
 * ARGV: now, lease end, most messages to claim.
 * A message is due when its score has passed and it is not held (or its lease ran out:
 * its consumer died). A message whose ordering key is held by another consumer's lease
 * waits, and so do the later ones with that key, so one key's messages never run side
 * by side. Claimed messages keep their place in `due` until handled, so a message whose
 * lease ran out comes before later ones sharing its key.
 */
const CLAIM = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
local claimed = {}
local mine = {}
local offset = 0
while #claimed < limit do
  local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', offset, limit * 4)
  if #ids == 0 then break end
  offset = offset + #ids
  for _, id in ipairs(ids) do
    if #claimed >= limit then break end
    local held = redis.call('ZSCORE', KEYS[2], id)
    if not held or tonumber(held) <= now then
      local k = redis.call('HGET', KEYS[3], id)
      local free = true
      if k and not mine[k] then
        local lane = redis.call('HGET', KEYS[4], k)
        if lane and tonumber(lane) > now then free = false end
      end
      if free then
        if k then
          mine[k] = true
          redis.call('HSET', KEYS[4], k, ARGV[2])
        end
        redis.call('ZADD', KEYS[2], ARGV[2], id)
        table.insert(claimed, id)
      end
    end
  end
end
return claimed`;

/** Lets an ordering key go once its claimed messages are handled (if the lease is still ours). */
const RELEASE_LANE = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1`;

/**
 * A handler threw. KEYS: due, held, attempts, errors, failed, bodies, keys.
 * ARGV: id, attempts now, retry at (ms), max attempts, error text, now, failed kept.
 * Retried later, or given up: moved to `failed` (the newest few hundred are kept).
 */
const FAIL = `
local id = ARGV[1]
redis.call('ZREM', KEYS[2], id)
redis.call('HSET', KEYS[3], id, ARGV[2])
redis.call('HSET', KEYS[4], id, ARGV[5])
if tonumber(ARGV[2]) >= tonumber(ARGV[4]) then
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZADD', KEYS[5], ARGV[6], id)
  local old = redis.call('ZRANGE', KEYS[5], 0, -(tonumber(ARGV[7]) + 1))
  for _, gone in ipairs(old) do
    redis.call('ZREM', KEYS[5], gone)
    redis.call('HDEL', KEYS[6], gone)
    redis.call('HDEL', KEYS[7], gone)
    redis.call('HDEL', KEYS[3], gone)
    redis.call('HDEL', KEYS[4], gone)
  end
else
  redis.call('ZADD', KEYS[1], ARGV[3], id)
end
return 1`;

/** How many given-up messages are kept for inspection. */
export const REDIS_FAILED_KEPT = 500;

/**
 * Fedify's message queue in Redis, with the database queue's guarantees: a message is
 * kept (a hash of bodies, a sorted set of due times) until handled; every consumer on
 * every instance may work, each claiming messages in one Lua script with a lease, so a
 * message runs on one consumer at a time and a consumer that dies leaves it due again
 * once the lease has run out; delays wait in the sorted set; messages sharing an
 * ordering key run one after another, in order, even across instances. A handler that
 * throws is retried with exponential backoff, then kept as failed.
 */
export class RedisMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  readonly #client: RedisClient;
  readonly #k: {
    due: string;
    held: string;
    bodies: string;
    keys: string;
    lanes: string;
    attempts: string;
    errors: string;
    failed: string;
  };
  readonly #opts: Required<Omit<QueueOptions, "holder">>;
  #wake: (() => void) | null = null;

  constructor(client: RedisClient, prefix: string, opts: QueueOptions) {
    this.#client = client;
    const base = `${prefix}fedify:queue:`;
    this.#k = {
      due: `${base}due`,
      held: `${base}held`,
      bodies: `${base}bodies`,
      keys: `${base}keys`,
      lanes: `${base}lanes`,
      attempts: `${base}attempts`,
      errors: `${base}errors`,
      failed: `${base}failed`,
    };
    const { holder: _holder, ...rest } = opts;
    this.#opts = {
      pollMs: 1000,
      lockMs: 5 * 60_000,
      concurrency: 8,
      maxAttempts: 8,
      backoffMs: 30_000,
      maxBackoffMs: 6 * 3_600_000,
      now: () => new Date(),
      collector: bulkCollector,
      ...rest,
    };
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    if (messages.length === 0) return;
    const now = this.#opts.now();
    const at = now.getTime() + delayMs(options);
    for (let i = 0; i < messages.length; i += 500) {
      const chunk = messages
        .slice(i, i + 500)
        .map((message) => ({ id: sortableId(now), body: JSON.stringify(message) }));
      const multi = this.#client
        .multi()
        .hSet(this.#k.bodies, Object.fromEntries(chunk.map((m) => [m.id, m.body])))
        .zAdd(
          this.#k.due,
          chunk.map((m) => ({ score: at, value: m.id })),
        );
      if (options?.orderingKey !== undefined) {
        multi.hSet(this.#k.keys, Object.fromEntries(chunk.map((m) => [m.id, options.orderingKey as string])));
      }
      // Bodies, due times and keys land together or not at all.
      await multi.exec();
    }
    if (delayMs(options) === 0) this.#wake?.();
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const now = this.#opts.now().getTime();
    const [queued, ready] = await Promise.all([
      this.#client.zCard(this.#k.due),
      this.#client.zCount(this.#k.due, "-inf", now),
    ]);
    return { queued: Number(queued), ready: Number(ready), delayed: Number(queued) - Number(ready) };
  }

  /** The messages given up after `maxAttempts` (newest last), for the admin and tests. */
  async failed(): Promise<Array<{ id: string; message: unknown; attempts: number; lastError: string | null }>> {
    const ids = await this.#client.zRange(this.#k.failed, 0, -1);
    const out: Array<{ id: string; message: unknown; attempts: number; lastError: string | null }> = [];
    for (const id of ids) {
      const [body, attempts, error] = await Promise.all([
        this.#client.hGet(this.#k.bodies, id),
        this.#client.hGet(this.#k.attempts, id),
        this.#client.hGet(this.#k.errors, id),
      ]);
      out.push({
        id,
        message: body ? (JSON.parse(body) as unknown) : null,
        attempts: Number(attempts ?? 0),
        lastError: error ?? null,
      });
    }
    return out;
  }

  /** Handles due messages until the signal aborts; resolves then. Every instance may listen. */
  listen(handler: (message: unknown) => Promise<void> | void, options: MessageQueueListenOptions = {}): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve();
    let running: Promise<void> | null = null;
    let again = false;
    let stopped = false;
    const tick = () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = this.drain(handler)
        .then(() => undefined)
        .catch((error: unknown) => this.#opts.log.error({ err: error }, "federation queue (redis) failed"))
        .finally(() => {
          running = null;
          if (again) {
            again = false;
            tick();
          }
        });
    };
    this.#wake = tick;
    const timer = setInterval(tick, this.#opts.pollMs);
    timer.unref();
    tick();
    return new Promise((resolve) => {
      if (!signal) return;
      signal.addEventListener(
        "abort",
        () => {
          stopped = true;
          clearInterval(timer);
          this.#wake = null;
          void (running ?? Promise.resolve()).then(() => resolve());
        },
        { once: true },
      );
    });
  }

  /** One consumer's run (tests call it too): handles every due message it can claim. */
  async drain(handler: (message: unknown) => Promise<void> | void): Promise<number> {
    let handled = 0;
    // Thousands of deliveries after a post collect their garbage as they go.
    const collector = this.#opts.collector();
    for (;;) {
      const now = this.#opts.now().getTime();
      const leaseEnd = String(now + this.#opts.lockMs);
      const reply = await this.#client.eval(CLAIM, {
        keys: [this.#k.due, this.#k.held, this.#k.keys, this.#k.lanes],
        arguments: [String(now), leaseEnd, String(this.#opts.concurrency * 4)],
      });
      const ids = Array.isArray(reply) ? reply.map(String) : [];
      if (ids.length === 0) return handled;
      const [bodies, orderingKeys, attempts] = await Promise.all([
        this.#client.hmGet(this.#k.bodies, ids),
        this.#client.hmGet(this.#k.keys, ids),
        this.#client.hmGet(this.#k.attempts, ids),
      ]);
      const lanes = new Map<string, Array<{ id: string; body: string | null; attempts: number }>>();
      ids.forEach((id, i) => {
        const lane = orderingKeys[i] ?? `id:${id}`;
        lanes.set(lane, [
          ...(lanes.get(lane) ?? []),
          { id, body: bodies[i] ?? null, attempts: Number(attempts[i] ?? 0) },
        ]);
      });
      await Promise.all(
        [...lanes.entries()].map(async ([lane, messages]) => {
          for (const m of messages) await this.#handle(m, handler);
          if (!lane.startsWith("id:")) {
            await this.#client.eval(RELEASE_LANE, { keys: [this.#k.lanes], arguments: [lane, leaseEnd] });
          }
        }),
      );
      handled += ids.length;
      collector.afterWork();
    }
  }

  async #forget(id: string): Promise<void> {
    await this.#client
      .multi()
      .zRem(this.#k.due, id)
      .zRem(this.#k.held, id)
      .hDel(this.#k.bodies, id)
      .hDel(this.#k.keys, id)
      .hDel(this.#k.attempts, id)
      .hDel(this.#k.errors, id)
      .exec();
  }

  async #handle(
    m: { id: string; body: string | null; attempts: number },
    handler: (message: unknown) => Promise<void> | void,
  ): Promise<void> {
    // Handled and removed by another consumer after our lease ran out: nothing left to do.
    if (m.body === null) {
      await this.#forget(m.id);
      return;
    }
    try {
      await handler(JSON.parse(m.body));
      await this.#forget(m.id);
    } catch (error) {
      const attempts = m.attempts + 1;
      const now = this.#opts.now().getTime();
      const delay = backoffDelay(attempts, this.#opts.backoffMs, this.#opts.maxBackoffMs);
      const text = error instanceof Error ? error.message : String(error);
      this.#opts.log.warn({ err: error, id: m.id, attempts }, "federation queue message failed");
      const k = this.#k;
      await this.#client.eval(FAIL, {
        keys: [k.due, k.held, k.attempts, k.errors, k.failed, k.bodies, k.keys],
        arguments: [
          m.id,
          String(attempts),
          String(now + delay),
          String(this.#opts.maxAttempts),
          text.slice(0, 1000),
          String(now),
          String(REDIS_FAILED_KEPT),
        ],
      });
    }
  }
}
