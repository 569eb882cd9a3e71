import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenDatabase, openDatabase } from "../../app/server/db/db.server.ts";
import { searchPosts } from "../../app/server/search/search.server.ts";
import { insertRawPost } from "../setup/raw-post.ts";
import { repoRoot, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl } from "../setup/test-db.ts";

let dataDir: string;
let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
let open: OpenDatabase;

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ["scripts/cli.ts", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dataDir, DATABASE_URL: database.url },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  dataDir = tempDataDir();
  database = await createServerDatabaseUrl(dataDir);
  expect(cli("migrate").code).toBe(0);
  open = openDatabase(
    database.dialect === "sqlite"
      ? { dialect: "sqlite", file: database.url }
      : { dialect: "postgres", connectionString: database.url },
  );
});

afterAll(async () => {
  await open.close();
  await database.cleanup();
});

describe("npm run cli -- search:reindex", () => {
  it("indexes posts written without the index, so search finds them", async () => {
    // Written as another process (or a version before the index) would: no index rows.
    await insertRawPost(open.db, {
      slug: "unindexed",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-20T08:00:00.000Z",
      translations: [
        { locale: "en", title: "Reindexed walrus", bodyHtml: "<p>A walrus.</p>" },
        { locale: "zh", title: "重建索引", bodyHtml: "<p>我们在测试。</p>" },
      ],
    });
    const search = (q: string) => searchPosts(open.db, { q, locale: "en", page: 1, pageSize: 10 });
    expect((await search("walrus")).total).toBe(0);

    const { code, out } = cli("search:reindex");
    expect(code).toBe(0);
    expect(out).toBe("reindexed 1 posts (2 language versions indexed)\n");
    expect((await search("walrus")).items.map((i) => i.title)).toEqual(["Reindexed walrus"]);
    expect((await search("测试")).items.map((i) => i.title)).toEqual(["重建索引"]);
    // A second run replaces the rows instead of adding to them.
    expect(cli("search:reindex").code).toBe(0);
    expect((await search("walrus")).total).toBe(1);
  });

  it("is listed in the help", () => {
    expect(cli("--help").out).toContain("search:reindex");
  });
});
