import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { connectRedis, type RedisClient } from "../../app/server/shared-state/redis.server.ts";
import { createTestDatabase, type TestDatabase } from "./test-db.ts";

/**
 * Redis for the shared-state tests: TEST_REDIS_URL, set by `.ci/run` when a Redis
 * server answers (as TEST_DATABASE_URL is for PostgreSQL). Each test file gets its
 * own key prefix and removes its keys afterwards.
 */
export const testRedisUrl = (): string | null => process.env.TEST_REDIS_URL || null;

export interface TestRedis {
  client: RedisClient;
  prefix: string;
  cleanup(): Promise<void>;
}

export async function createTestRedis(url: string): Promise<TestRedis> {
  const client = await connectRedis(url, pino({ level: "silent" }));
  const prefix = `inkwell-test-${randomBytes(6).toString("hex")}:`;
  return {
    client,
    prefix,
    async cleanup() {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(keys);
      await client.close();
    },
  };
}

/**
 * For a test file that checks one shared-state store on every backend: a migrated
 * test database, and a Redis where TEST_REDIS_URL is set, opened before the file's
 * tests and closed after. Returns `[name, make]` pairs for `describe.each`; `make`
 * builds the store once the connections are up.
 */
export function sharedStoreBackends<T>(make: {
  database: (db: TestDatabase["db"]) => T;
  redis: (client: RedisClient, prefix: string) => T;
}): Array<[string, () => T]> {
  let database: TestDatabase | null = null;
  let redis: TestRedis | null = null;
  beforeAll(async () => {
    database = await createTestDatabase();
    const url = testRedisUrl();
    if (url) redis = await createTestRedis(url);
  });
  afterAll(async () => {
    await database?.cleanup();
    await redis?.cleanup();
  });
  const backends: Array<[string, () => T]> = [
    [
      "database",
      () => {
        if (!database) throw new Error("test database not open");
        return make.database(database.db);
      },
    ],
  ];
  if (testRedisUrl()) {
    backends.push([
      "redis",
      () => {
        if (!redis) throw new Error("redis not connected");
        return make.redis(redis.client, redis.prefix);
      },
    ]);
  }
  return backends;
}
