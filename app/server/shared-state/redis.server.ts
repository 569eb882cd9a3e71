import type { SecondaryStorage } from "@better-auth/core/db";
import { createClient } from "@redis/client";
import type { Logger } from "pino";
import { CHANGE_LOG_SIZE, type ContentVersionStore, decodeTags, encodeTags } from "../cache/content-version.server.ts";
import type { RateLimitStore } from "../http/rate-limit.server.ts";

/**
 * Connects to REDIS_URL, or fails after `timeoutMs`. Once connected, the client
 * reconnects by itself (with back-off) after a lost connection; commands sent
 * meanwhile fail at once rather than queue, so a request answers with an error
 * instead of hanging while Redis is away.
 */
export async function connectRedis(url: string, log: Logger, timeoutMs = 10_000): Promise<RedisClient> {
  const client = newClient(url);
  let down = false;
  client.on("error", (error: unknown) => {
    if (!down) log.warn({ err: error }, "redis: connection error");
    down = true;
  });
  client.on("ready", () => {
    if (down) log.info("redis: connected again");
    down = false;
  });
  // connect() keeps retrying on its own; at start, give up after a while instead.
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer from ${redactedUrl(url)} within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(), gaveUp]);
  } catch (error) {
    client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "REDIS_URL";
  }
}

const newClient = (url: string) =>
  createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
    },
  });

export type RedisClient = ReturnType<typeof newClient>;

/**
 * better-auth's secondary storage: sessions (and the short-lived verification
 * values) live in Redis, so every instance sees a sign-in and a sign-out at once.
 */
export function redisSecondaryStorage(client: RedisClient, prefix: string): SecondaryStorage {
  const k = (key: string) => `${prefix}auth:${key}`;
  return {
    get: (key) => client.get(k(key)),
    getAndDelete: (key) => client.getDel(k(key)),
    async set(key, value, ttl) {
      if (ttl !== undefined && ttl > 0) await client.set(k(key), value, { expiration: { type: "EX", value: ttl } });
      else await client.set(k(key), value);
    },
    async delete(key) {
      await client.del(k(key));
    },
    async increment(key, ttl) {
      const count = await client.eval(INCREMENT_WITH_TTL, { keys: [k(key)], arguments: [String(Math.max(1, ttl))] });
      return Number(count);
    },
  };
}

/** INCR, setting the expiry (seconds) only when the key is new. */
const INCREMENT_WITH_TTL = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * One fixed window per key, as the database store keeps it: a hash with the
 * count and the window's end on the caller's clock (instances share a clock
 * through NTP, as they do for the database store). The key itself expires a
 * minute after its window so Redis forgets old counters.
 */
const WINDOW_HIT = `
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local ends = tonumber(redis.call('HGET', KEYS[1], 'e') or '0')
if ends <= now then
  ends = now + windowMs
  redis.call('HSET', KEYS[1], 'c', 1, 'e', ends)
  redis.call('PEXPIRE', KEYS[1], windowMs + 60000)
  return {1, tostring(ends)}
end
return {redis.call('HINCRBY', KEYS[1], 'c', 1), tostring(ends)}`;

export function redisRateLimitStore(client: RedisClient, prefix: string): RateLimitStore {
  return {
    async increment(key, windowMs, now) {
      const reply = await client.eval(WINDOW_HIT, {
        keys: [`${prefix}rl:${key}`],
        arguments: [String(now), String(windowMs)],
      });
      if (!Array.isArray(reply) || reply.length !== 2) throw new Error("redis: unexpected rate-limit reply");
      return { count: Number(reply[0]), expiresAt: Number(reply[1]) };
    },
    async peek(key, now) {
      const [count, ends] = await client.hmGet(`${prefix}rl:${key}`, ["c", "e"]);
      if (count == null || ends == null || Number(ends) <= now) return null;
      return { count: Number(count), expiresAt: Number(ends) };
    },
  };
}

/**
 * A bump: the counter and the change it made, in one step (a watcher reading the
 * counter finds the change beside it), keeping only the latest changes.
 */
const BUMP = `
local version = redis.call('INCR', KEYS[1])
redis.call('ZADD', KEYS[2], version, version .. '|' .. ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[2]) + 1))
return version`;

/** The render cache's content version as one Redis counter, and its recent changes as a sorted set. */
export function redisContentVersion(client: RedisClient, prefix: string): ContentVersionStore {
  const key = `${prefix}content-version`;
  const changesKey = `${prefix}content-changes`;
  return {
    async bump(tags = "all") {
      await client.eval(BUMP, { keys: [key, changesKey], arguments: [encodeTags(tags), String(CHANGE_LOG_SIZE)] });
    },
    async read() {
      // Never 0 once read: 0 means "unknown" to the watcher.
      const value = await client.get(key);
      return value === null ? 1 : Number(value) + 1;
    },
    async changes(after, upTo) {
      // read() answers the counter plus one: the change that made counter n is version n + 1.
      const members = await client.zRangeByScore(changesKey, `(${after - 1}`, upTo - 1);
      return members.map((member) => decodeTags(member.slice(member.indexOf("|") + 1)));
    },
  };
}
