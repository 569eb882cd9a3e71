import { randomBytes } from "node:crypto";
import pino from "pino";
import { connectRedis, type RedisClient } from "../../app/server/shared-state/redis.server.ts";

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
