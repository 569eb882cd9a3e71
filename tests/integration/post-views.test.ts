import { describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

async function get(url: string, userAgent: string): Promise<number> {
  const res = await fetch(url, { headers: { "User-Agent": userAgent } });
  await res.arrayBuffer();
  return res.status;
}

describe(`post views through the server (${testDialect()})`, () => {
  it("counts a reader once, skips bots, and writes the count when the server stops", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url });
    const opened = openDatabase(parseDatabaseUrl(database.url, dataDir));
    try {
      const id = await createPost(opened.db, {
        slug: "counted",
        authorId: null,
        status: "published",
        publishedAt: "2026-11-01T00:00:00.000Z",
        translations: [{ locale: "en", title: "Counted" }],
      });
      const draft = await createPost(opened.db, {
        slug: "not-counted",
        authorId: null,
        status: "draft",
        publishedAt: null,
        translations: [{ locale: "en", title: "Draft" }],
      });
      expect(await get(`${server.url}/posts/detail/${id}`, BROWSER)).toBe(200);
      expect(await get(`${server.url}/en/posts/detail/${id}`, BROWSER)).toBe(200);
      expect(await get(`${server.url}/posts/detail/${id}.data`, BROWSER)).toBe(200);
      expect(await get(`${server.url}/posts/detail/${id}`, "Googlebot/2.1 (+http://www.google.com/bot.html)")).toBe(
        200,
      );
      expect(await get(`${server.url}/posts/detail/${draft}`, BROWSER)).toBe(404);
      const { code } = await server.stop("SIGTERM");
      expect(code).toBe(0);
      const rows = await opened.db.selectFrom("posts").select(["slug", "viewCount"]).orderBy("slug").execute();
      expect(rows.map((r) => [r.slug, Number(r.viewCount)])).toEqual([
        ["counted", 1],
        ["not-counted", 0],
      ]);
    } finally {
      await server.stop("SIGKILL");
      await opened.close();
      await database.cleanup();
    }
  });
});
