import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { repoRoot, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl } from "../setup/test-db.ts";

let dataDir: string;
let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

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
});
afterAll(async () => {
  await database.cleanup();
});

// Each command is a new Node process (~0.8 s of CPU to start and load): a test running
// eight of them needs more than the default 20 s on a busy machine.
describe("npm run cli", { timeout: 90_000 }, () => {
  it("prints help with --help", () => {
    const { code, out } = cli("--help");
    expect(code).toBe(0);
    expect(out).toContain("Usage: npm run cli -- <command>");
    expect(out).toContain("migrate");
  });

  it("migrates, and a second run is a no-op", () => {
    const first = cli("migrate");
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^applied: \d{8}T\d{6}_/);
    const second = cli("migrate");
    expect(second).toEqual({ code: 0, out: "database is up to date\n" });
    const status = cli("migrate:status");
    expect(status.out).toMatch(/^applied {2}\d{8}T\d{6}_create_posts$/m);
    expect(status.out).not.toContain("pending");
  });

  it("refuses to roll back without --yes", () => {
    const { code, out } = cli("migrate:down");
    expect(code).toBe(2);
    expect(out).toContain("--yes");
  });

  it("adds, lists and removes admins by normalised e-mail, keeping the last one", () => {
    expect(cli("admin", "add", "  Boss@Example.TEST ")).toEqual({ code: 0, out: "added admin boss@example.test\n" });
    expect(cli("admin", "add", "boss@example.test").out).toBe("boss@example.test is already an admin\n");
    expect(cli("admin", "add", "second@example.test").code).toBe(0);
    const list = cli("admin", "list");
    expect(list.out).toMatch(/^boss@example\.test\tcli\t\d{4}-/m);
    expect(list.out).toMatch(/^second@example\.test\tcli\t/m);
    expect(cli("admin", "remove", "SECOND@example.test")).toEqual({
      code: 0,
      out: "removed admin second@example.test\n",
    });
    const last = cli("admin", "remove", "boss@example.test");
    expect(last.code).toBe(2);
    expect(last.out).toContain("last admin");
    expect(cli("admin", "remove", "boss@example.test", "--force").code).toBe(0);
    expect(cli("admin", "list").out).toBe("no admins yet\n");
  });

  it("refuses an admin command without a valid e-mail", () => {
    expect(cli("admin", "add", "not-an-email").code).toBe(2);
    expect(cli("admin", "frob").code).toBe(2);
  });

  it("rejects an unknown command with the help text", () => {
    const { code, out } = cli("frobnicate");
    expect(code).toBe(2);
    expect(out).toContain("unknown command: frobnicate");
  });

  it("seeds demo content once, and again only with --force", async () => {
    const first = cli("seed", "--demo");
    expect(first).toEqual({
      code: 0,
      out: "seeded 25 posts (22 published, 2 drafts, 1 scheduled), 6 categories, 20 tags, 15 comments by demo@example.invalid\n",
    });
    const opened = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 1 });
    try {
      const { db } = opened;
      const count = async (table: "posts" | "categories" | "tags" | "comments" | "postTags") =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number | string>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count("posts")).toBe(25);
      expect(await count("categories")).toBe(6);
      expect(await count("tags")).toBe(20);
      expect(await count("postTags")).toBeGreaterThanOrEqual(48);
      const user = await db.selectFrom("users").selectAll().where("email", "=", "demo@example.invalid").execute();
      expect(user).toHaveLength(1);
      expect(user[0]).toMatchObject({ name: "Demo Author", emailVerified: 1 });
      // No account row: nobody can sign in as the demo author.
      const accounts = await db
        .selectFrom("accounts")
        .select("id")
        .where("userId", "=", user[0]?.id ?? "")
        .execute();
      expect(accounts).toEqual([]);
      const languages = await db
        .selectFrom("postTranslations")
        .select(["postId", (eb) => eb.fn.countAll<number | string>().as("n")])
        .groupBy("postId")
        .execute();
      expect(languages.filter((l) => Number(l.n) === 1).length).toBeGreaterThanOrEqual(4);
      expect(languages.filter((l) => Number(l.n) === 2).length).toBeGreaterThanOrEqual(16);
      const zh = await db
        .selectFrom("postTranslations")
        .select(["bodyMarkdown", "bodyHtml"])
        .where("locale", "=", "zh")
        .execute();
      expect(zh.some((t) => t.bodyMarkdown.includes("测试"))).toBe(true);
      for (const html of ["<h2", "<h3", '<pre class="shiki', "<table>", "<ul>", "<a href="]) {
        expect(
          zh.some((t) => t.bodyHtml.includes(html)),
          html,
        ).toBe(true);
      }
      const comments = await db.selectFrom("comments").select(["status", "authorId"]).execute();
      expect(comments.every((c) => c.status === "approved" && c.authorId === user[0]?.id)).toBe(true);

      const again = cli("seed", "--demo");
      expect(again.code).toBe(2);
      expect(again.out).toContain("--force");
      expect(await count("posts")).toBe(25);

      expect(cli("seed", "--demo", "--posts", "5", "--force").code).toBe(0);
      expect(await count("posts")).toBe(30);
      expect(await count("categories")).toBe(6);
      expect(await count("tags")).toBe(20);
    } finally {
      await opened.close();
    }
  }, 60_000);

  it("refuses a seed without --demo or with a bad --posts", () => {
    expect(cli("seed").code).toBe(2);
    expect(cli("seed", "--demo", "--posts", "many").code).toBe(2);
    expect(cli("seed", "--demo", "--posts", "99999").code).toBe(2);
  });
});

describe("npm run cli -- media gc", () => {
  it("lists old files no media record owns, and removes them only with --delete", () => {
    const uploads = path.join(dataDir, "uploads");
    const orphan = path.join(uploads, "zzzzzzzzzzzzzzzzzzzz", "image.png");
    const fresh = path.join(uploads, "yyyyyyyyyyyyyyyyyyyy", "image.png");
    mkdirSync(path.dirname(orphan), { recursive: true });
    mkdirSync(path.dirname(fresh), { recursive: true });
    writeFileSync(orphan, "old bytes");
    writeFileSync(fresh, "an upload still being recorded");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(orphan, twoHoursAgo, twoHoursAgo);

    const dry = cli("media", "gc");
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("orphan   zzzzzzzzzzzzzzzzzzzz/image.png");
    expect(dry.out).not.toContain("yyyyyyyyyyyyyyyyyyyy");
    expect(dry.out).toContain("1 file(s) no media record refers to (dry run");
    expect(existsSync(orphan)).toBe(true);

    const wet = cli("media", "gc", "--delete");
    expect(wet.code).toBe(0);
    expect(wet.out).toContain("removed 1 file(s)");
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(fresh)).toBe(true);

    expect(cli("media", "purge").code).toBe(2);
  });
});
