import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, nowIso, openDatabase } from "../../app/server/db/db.server.ts";
import { migrateToLatest } from "../../app/server/db/migrate.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { countRows, startCli } from "../setup/cli-process.ts";
import { insertUser } from "../setup/fixtures-db.ts";
import { repoRoot, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// `npm run cli -- import:ghost` as a user runs it, on the fixture export with its members:
// the posts, pages, redirects and subscribers land once; a second run adds nothing.

const EXPORT = path.join(repoRoot, "tests/fixtures/ghost/export.json");
const MEMBERS = path.join(repoRoot, "tests/fixtures/ghost/members.csv");

let dataDir: string;
let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
let opened: ReturnType<typeof openDatabase>;
let db: DB;

const run = () => startCli(["import:ghost", EXPORT, "--members", MEMBERS], { dataDir, databaseUrl: database.url }).done;

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
});

afterAll(async () => {
  await opened.close();
  await database.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`npm run cli -- import:ghost --members (${testDialect()})`, () => {
  it("imports the posts and subscribes the members once; a second run adds nothing", async () => {
    const first = await run();
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain("6 post(s) and page(s), 1 page(s), 0 problem(s)");
    expect(first.out).toContain("done: imported 5, updated 0, pages 1, skipped 0, failed 0");
    expect(first.out).toContain("members done: 2 subscribed, 0 already on the list, 1 not subscribed");
    // Ghost's page is a page here (decision 035), at its old address: no redirect for it.
    expect(await countRows(db, "posts")).toBe(5);
    expect(await countRows(db, "pages")).toBe(4);
    const redirects = await countRows(db, "redirects");
    expect(redirects).toBe(10);
    const subscribers = await db.selectFrom("subscribers").select(["email", "status"]).orderBy("email").execute();
    expect(subscribers).toEqual([
      { email: "reader@example.com", status: "confirmed" },
      { email: "second@example.com", status: "confirmed" },
    ]);

    const second = await run();
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain("done: imported 0, updated 0, skipped 6, failed 0");
    expect(second.out).toContain("members done: 0 subscribed, 2 already on the list");
    expect(await countRows(db, "posts")).toBe(5);
    expect(await countRows(db, "pages")).toBe(4);
    expect(await countRows(db, "redirects")).toBe(redirects);
    expect(await countRows(db, "subscribers")).toBe(2);
  }, 60_000);
});
