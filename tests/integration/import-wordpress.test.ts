import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, nowIso, openDatabase } from "../../app/server/db/db.server.ts";
import { migrateToLatest } from "../../app/server/db/migrate.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { png } from "../fixtures/images.ts";
import { countRows, startCli } from "../setup/cli-process.ts";
import { insertUser } from "../setup/fixtures-db.ts";
import { repoRoot, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// `npm run cli -- import:wordpress` as a user runs it, on the fixture WXR with an uploads folder:
// posts, comments, revisions and redirects land once; a second run adds nothing; hostile files
// are refused with one line and nothing written.

const EXPORT = path.join(repoRoot, "tests/fixtures/wordpress/export.xml");

let dataDir: string;
let uploads: string;
let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
let opened: ReturnType<typeof openDatabase>;
let db: DB;

const cli = (args: string[]) => startCli(args, { dataDir, databaseUrl: database.url }).done;
const run = (...more: string[]) => cli(["import:wordpress", EXPORT, "--uploads", uploads, ...more]);

beforeAll(async () => {
  dataDir = tempDataDir();
  database = await createServerDatabaseUrl(dataDir);
  opened = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 });
  db = opened.db;
  await migrateToLatest(db);
  await insertUser(db, { email: "owner@example.test" });
  const now = nowIso();
  await db
    .insertInto("admins")
    .values({ email: "owner@example.test", source: "cli", createdAt: now, updatedAt: now })
    .execute();
  uploads = path.join(dataDir, "wp-uploads");
  await mkdir(path.join(uploads, "2021/03"), { recursive: true });
  await writeFile(path.join(uploads, "2021/03/kettle.png"), await png(32, 32));
});

afterAll(async () => {
  await opened.close();
  await database.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`npm run cli -- import:wordpress (${testDialect()})`, () => {
  it("refuses hostile and foreign files with one line, writing nothing", async () => {
    const bomb = path.join(dataDir, "bomb.xml");
    await writeFile(
      bomb,
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><rss><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>&b;</title></item></channel></rss>`,
    );
    const atom = path.join(dataDir, "feed.xml");
    await writeFile(atom, `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>`);
    const broken = path.join(dataDir, "broken.xml");
    await writeFile(broken, `<rss><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>x</item>`);
    for (const [file, message] of [
      [bomb, "import refused: a DOCTYPE is not allowed"],
      [atom, "import refused: not a WordPress export"],
      [broken, "import refused: not well-formed XML"],
    ] as const) {
      const result = await cli(["import:wordpress", file]);
      expect(result.code, result.out).toBe(2);
      expect(result.out).toContain(message);
    }
    expect(await countRows(db, "posts")).toBe(0);
    expect(await countRows(db, "postImports")).toBe(0);
  }, 60_000);

  it("shows a dry run, then imports posts, comments and revisions once; a second run adds nothing", async () => {
    const dry = await cli(["import:wordpress", EXPORT, "--dry-run"]);
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toContain("10 post(s) and page(s), 3 page(s), 2 in two languages, 4 comment(s), 2 attachment(s)");
    expect(dry.out).toContain("shortcode kept as text ([contact-form-7])");
    expect(dry.out).toContain("dry run, nothing written");
    expect(await countRows(db, "posts")).toBe(0);

    const first = await run("--chunk", "2");
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain(
      "done: imported 7, updated 0, pages 3, skipped 0, failed 0; images stored 1, missing 1",
    );
    expect(first.out).toContain("comments added 4");
    expect(await countRows(db, "posts")).toBe(7);
    expect(await countRows(db, "pages")).toBe(6);
    expect(await countRows(db, "comments")).toBe(4);
    // Pages keep their revisions with them (pageRevisions), not as posts'.
    expect(await countRows(db, "postRevisions")).toBe(9);
    const redirects = await countRows(db, "redirects");
    expect(redirects).toBeGreaterThan(20);

    const second = await run();
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain("done: imported 0, updated 0, skipped 10, failed 0");
    for (const table of ["posts", "comments", "postRevisions", "media"] as const)
      expect(await countRows(db, table), table).toBe(
        table === "posts" ? 7 : table === "comments" ? 4 : table === "media" ? 1 : 9,
      );
    expect(await countRows(db, "redirects")).toBe(redirects);
  }, 90_000);
});
