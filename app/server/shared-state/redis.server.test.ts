import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../tests/setup/server-process.ts";
import { createTestRedis, type TestRedis, testRedisUrl } from "../../../tests/setup/test-redis.ts";
import { connectRedis, redactedUrl, redisSecondaryStorage } from "./redis.server.ts";

const silent = pino({ level: "silent" });

describe("connecting to Redis", () => {
  it("gives up after its timeout with a message that names the server but not the password", async () => {
    // Nothing listens there: freePort binds it, then lets it go.
    const port = await freePort();
    const started = Date.now();
    const attempt = connectRedis(`redis://user:hunter2@127.0.0.1:${port}`, silent, 400);
    await expect(attempt).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${port}`));
    await expect(attempt).rejects.not.toThrow(/hunter2/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("redacts passwords from URLs", () => {
    expect(redactedUrl("redis://:pw@cache:6379/1")).toBe("redis://:***@cache:6379/1");
    expect(redactedUrl("redis://cache:6379")).toBe("redis://cache:6379");
    expect(redactedUrl("not a url")).toBe("REDIS_URL");
  });
});

// better-auth's storage contract, on a real Redis where TEST_REDIS_URL is set (.ci/run).
const url = testRedisUrl();
describe.each(url ? [url] : [])("better-auth secondary storage on %s", (redisUrl) => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await createTestRedis(redisUrl);
  });
  afterAll(async () => {
    await redis.cleanup();
  });

  it("stores, expires, reads once and deletes values", async () => {
    const storage = redisSecondaryStorage(redis.client, redis.prefix);
    await storage.set("session-a", "value-a");
    await storage.set("session-b", "value-b", 1);
    expect(await storage.get("session-a")).toBe("value-a");
    expect(await redis.client.ttl(`${redis.prefix}auth:session-b`)).toBe(1);
    expect(await storage.getAndDelete("session-a")).toBe("value-a");
    expect(await storage.get("session-a")).toBeNull();
    await storage.delete("session-b");
    expect(await storage.get("session-b")).toBeNull();
  });

  it("increments a counter atomically, setting its lifetime only once", async () => {
    const storage = redisSecondaryStorage(redis.client, redis.prefix);
    const counts = await Promise.all(Array.from({ length: 20 }, () => storage.increment("hits", 60)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await redis.client.expire(`${redis.prefix}auth:hits`, 30);
    await storage.increment("hits", 60);
    expect(await redis.client.ttl(`${redis.prefix}auth:hits`)).toBeLessThanOrEqual(30);
  });
});
