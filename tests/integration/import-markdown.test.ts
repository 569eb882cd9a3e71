import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, nowIso, openDatabase } from "../../app/server/db/db.server.ts";
import { migrateToLatest } from "../../app/server/db/migrate.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { png } from "../fixtures/images.ts";
import { type CliRun, countRows, startCli } from "../setup/cli-process.ts";
import { insertUser } from "../setup/fixtures-db.ts";
import { repoRoot, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// `npm run cli -- import:markdown` as a user runs it: a dry run that writes nothing, a run killed
// with SIGKILL halfway, the next run resuming it, and a third run that finds nothing to do.

/** Posts generated beside the fixture blog, so the kill lands mid-import. */
const BULK = 60;
const FIXTURE_POSTS = 9;

let dataDir: string;
let blog: string;
let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
let opened: ReturnType<typeof openDatabase>;
let db: DB;

function start(...args: string[]): CliRun {
  return startCli(["import:markdown", blog, ...args], { dataDir, databaseUrl: database.url });
}

const count = (table: "posts" | "media" | "redirects" | "importSources") => countRows(db, table);

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
  blog = path.join(dataDir, "blog");
  await cp(path.join(repoRoot, "tests/fixtures/markdown-blog"), blog, { recursive: true });
  await writeFile(path.join(blog, "content/posts/pic.png"), await png(64, 48));
  await mkdir(path.join(blog, "bulk"));
  for (let i = 0; i < BULK; i++) {
    await writeFile(
      path.join(blog, "bulk", `post-${i}.md`),
      `---\ntitle: Bulk post ${i}\ndate: 2020-02-${String((i % 28) + 1).padStart(2, "0")}\ntags: [bulk]\n---\n\nBody ${i}.\n`,
    );
  }
});

afterAll(async () => {
  await opened.close();
  await database.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`npm run cli -- import:markdown (${testDialect()})`, () => {
  it("a dry run prints the report and writes nothing", async () => {
    const { code, out } = await start("--dry-run").done;
    expect(code).toBe(0);
    expect(out).toContain(`${FIXTURE_POSTS + BULK} post(s), 3 in two languages`);
    expect(out).toContain("hostile/bomb.md: front matter refused: too many YAML aliases");
    expect(out).toContain(`an import would have: imported ${FIXTURE_POSTS + BULK}, updated 0, skipped 0, failed 2`);
    expect(await count("posts")).toBe(0);
    expect(await count("importSources")).toBe(0);
    // Remote images stay links and are listed; with --fetch-remote the dry run says they would be fetched.
    expect(out).toContain(
      "remote image kept as a link (--fetch-remote fetches it) (https://images.example.com/remote.png)",
    );
    const fetching = await start("--dry-run", "--fetch-remote").done;
    expect(fetching.code).toBe(0);
    expect(fetching.out).toContain("remote image, fetched when imported (https://images.example.com/remote.png)");
  });

  it("killed halfway, the next run resumes; a third run adds nothing", async () => {
    const total = FIXTURE_POSTS + BULK;
    const first = start("--chunk", "2");
    const state = () => db.selectFrom("postImports").select(["processed", "imported", "status"]).executeTakeFirst();
    for (const deadline = Date.now() + 60_000; ; ) {
      const s = await state();
      if (s && s.processed > 0) break;
      if (Date.now() > deadline) throw new Error("the import never started");
      await new Promise((r) => setTimeout(r, 5));
    }
    first.child.kill("SIGKILL");
    await first.done;
    const atKill = await state();
    expect(atKill?.status).toBe("running");
    expect(Number(atKill?.processed)).toBeLessThan(total);
    // Whole chunks only: the posts written are exactly the ones the cursor counts.
    expect(await count("posts")).toBe(Number(atKill?.imported));

    const second = await start().done;
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain("resuming the unfinished import of this folder");
    expect(second.out).toMatch(/\] posts \d+\/69: /);
    expect(second.out).toContain(`done: imported ${total}, updated 0, skipped 0, failed 2`);
    expect(await count("posts")).toBe(total);
    expect(await count("importSources")).toBe(total + 1);
    const redirects = await count("redirects");
    expect(redirects).toBeGreaterThan(total);

    const third = await start().done;
    expect(third.code, third.out).toBe(0);
    expect(third.out).toContain(`done: imported 0, updated 0, skipped ${total}, failed 2`);
    expect(await count("posts")).toBe(total);
    expect(await count("media")).toBe(1);
    expect(await count("redirects")).toBe(redirects);
  }, 120_000);

  it("with --fetch-remote, refuses images on loopback and private addresses", async () => {
    const folder = path.join(dataDir, "ssrf");
    await mkdir(folder);
    await writeFile(
      path.join(folder, "ssrf.md"),
      "---\ntitle: SSRF\ndate: 2021-01-01\n---\n\n![a](http://127.0.0.1:9/a.png) ![b](http://10.0.0.1/b.png) ![c](http://[::1]/c.png)\n",
    );
    const run = await startCli(["import:markdown", folder, "--fetch-remote"], { dataDir, databaseUrl: database.url })
      .done;
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("images stored 0, missing 3");
    expect(run.out.match(/remote image on a private, loopback or link-local address: refused/g)).toHaveLength(3);
  }, 60_000);
});
