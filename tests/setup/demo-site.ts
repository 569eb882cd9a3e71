import { spawnSync } from "node:child_process";
import { expect } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { repoRoot } from "./server-process.ts";

/**
 * Seeds `posts` demo posts into a data folder and database through the CLI, as a newcomer
 * would, and returns the paths of the newest published post and of a tag that has posts.
 */
export async function seedDemoSite(
  dataDir: string,
  databaseUrl: string,
  posts: number,
): Promise<{ postPath: string; tagPath: string }> {
  const seeded = spawnSync(process.execPath, ["scripts/cli.ts", "seed", "--demo", "--posts", String(posts)], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
  });
  expect(seeded.status, seeded.stderr).toBe(0);
  const { db, close } = openDatabase(parseDatabaseUrl(databaseUrl, dataDir), { poolMax: 1 });
  try {
    const post = await db
      .selectFrom("posts")
      .select("id")
      .where("status", "=", "published")
      .orderBy("publishedAt", "desc")
      .executeTakeFirstOrThrow();
    const tag = await db
      .selectFrom("tags")
      .innerJoin("postTags", "postTags.tagId", "tags.id")
      .select("tags.slug")
      .executeTakeFirstOrThrow();
    return { postPath: `/posts/detail/${post.id}`, tagPath: `/tags/${encodeURIComponent(tag.slug)}` };
  } finally {
    await close();
  }
}
