import { type Boot, createServices } from "../../app/server/boot/services.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import { parseEnv } from "../../app/server/platform/env.server.ts";
import { seedDemo } from "../../scripts/demo/seed.ts";
import { tempDataDir } from "./server-process.ts";
import { createServerDatabaseUrl } from "./test-db.ts";

/**
 * The services of one instance (as the server makes them, quiet) over a fresh test database
 * of the dialect under test, seeded with `posts` demo posts: for tests that call the route
 * loaders in process and count what they ask of the database. `close` stops the services
 * and drops the database.
 */
export async function bootDemoBlog(posts: number): Promise<{ boot: Boot; close: () => Promise<void> }> {
  const dataDir = tempDataDir();
  const database = await createServerDatabaseUrl(dataDir);
  let boot: Boot | undefined;
  try {
    const env = parseEnv({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      LOG_REQUESTS: "false",
    });
    boot = await createServices(env);
    await seedDemo(boot.database.db, { posts });
  } catch (error) {
    await boot?.close();
    await database.cleanup();
    throw error;
  }
  const booted = boot;
  return {
    boot: booted,
    close: async () => {
      await booted.close();
      await database.cleanup();
    },
  };
}

/** The id of the published post `offset` places from the newest (1: one with neighbours on both sides). */
export async function publishedPostAt(db: DB, offset: number): Promise<string> {
  const post = await db
    .selectFrom("posts")
    .select("id")
    .where("status", "=", "published")
    .orderBy("publishedAt", "desc")
    .limit(1)
    .offset(offset)
    .executeTakeFirstOrThrow();
  return post.id;
}
