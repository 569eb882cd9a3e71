import type { SecondaryStorage } from "@better-auth/core/db";
import type { Logger } from "pino";
import { type ContentVersionStore, dbContentVersion } from "../cache/content-version.server.ts";
import type { DB } from "../db/db.server.ts";
import { dbRateLimitStore, type RateLimitStore } from "../http/rate-limit.server.ts";
import type { Env } from "../platform/env.server.ts";
import type { RedisClient } from "./redis.server.ts";

/**
 * The state every instance must share: rate-limit counters, the render cache's
 * content version and (with Redis) the sessions. In the database by default; in
 * Redis when REDIS_URL is set.
 */
export interface SharedState {
  kind: "database" | "redis";
  rateLimits: RateLimitStore;
  contentVersion: ContentVersionStore;
  /** better-auth's secondary storage (sessions), or null to keep them in the database. */
  authStorage: SecondaryStorage | null;
  /** The Redis connection and this site's key prefix (federation keeps its store and queue there), or null. */
  redis: { client: RedisClient; prefix: string } | null;
  /** Whether the shared store answers (for /readyz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export async function createSharedState(env: Env, db: DB, log: Logger): Promise<SharedState> {
  if (!env.redis) {
    return {
      kind: "database",
      rateLimits: dbRateLimitStore(db),
      contentVersion: dbContentVersion(db),
      authStorage: null,
      redis: null,
      ping: async () => true,
      close: async () => {},
    };
  }
  const { url, prefix } = env.redis;
  // The Redis client is loaded only when REDIS_URL is set.
  const { connectRedis, redisContentVersion, redisRateLimitStore, redisSecondaryStorage } = await import(
    "./redis.server.ts"
  );
  const client = await connectRedis(url, log);
  return {
    kind: "redis",
    rateLimits: redisRateLimitStore(client, prefix),
    contentVersion: redisContentVersion(client, prefix),
    authStorage: redisSecondaryStorage(client, prefix),
    redis: { client, prefix },
    async ping() {
      return (await client.ping()) === "PONG";
    },
    async close() {
      await client.close();
    },
  };
}
