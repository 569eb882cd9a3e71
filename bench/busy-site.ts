// `npm run bench:busy`: the render cache while readers comment (issue 29). Seeds a
// demo blog (or reuses --data), starts the production server with the cache on, and
// loads ~200 of its public URLs with autocannon twice: quiet, then while a signed-in
// reader posts a comment every --every ms. Prints req/s and p99 of both and their
// ratio. --database-url runs it on PostgreSQL instead of SQLite.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../app/server/platform/env.server.ts";
import { ensureBuild, SERVER_ENTRY } from "../scripts/build-if-stale.js";
import { seed, serverEnv, startScriptFlags } from "./bench.ts";
import { type LoadResult, loadPage, timedGet } from "./load.ts";
import { startProcess } from "./process.ts";

const USAGE = `Usage: npm run bench:busy -- [options]

  --posts N            demo posts to seed (default 10000)
  --data DIR           data directory to use and keep (seeded when it has no posts)
  --database-url URL   PostgreSQL database to use (seeded when it has no posts)
  --duration S         seconds of load per run (default 20)
  --connections C      concurrent connections (default 32)
  --every MS           one comment every MS milliseconds in the busy run (default 2000)`;

const PASSWORD = "correct horse battery";

interface Options {
  posts: number;
  data?: string;
  databaseUrl?: string;
  duration: number;
  connections: number;
  every: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      posts: { type: "string", default: "10000" },
      data: { type: "string" },
      "database-url": { type: "string" },
      duration: { type: "string", default: "20" },
      connections: { type: "string", default: "32" },
      every: { type: "string", default: "2000" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (name: string, raw: string) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} needs a whole number above 0`);
    return n;
  };
  return {
    posts: number("posts", values.posts),
    duration: number("duration", values.duration),
    connections: number("connections", values.connections),
    every: number("every", values.every),
    ...(values.data ? { data: path.resolve(values.data) } : {}),
    ...(values["database-url"] ? { databaseUrl: values["database-url"] } : {}),
  };
}

/** ~200 public URLs of the blog: the newest posts, list pages, tags, categories, searches. */
async function siteUrls(dataDir: string, databaseUrl: string | undefined) {
  const { db, close } = openDatabase(parseDatabaseUrl(databaseUrl, dataDir), { poolMax: 1 });
  try {
    const posts = await db
      .selectFrom("posts")
      .select("id")
      .where("status", "=", "published")
      .where("deletedAt", "is", null)
      .orderBy("publishedAt", "desc")
      .limit(120)
      .execute();
    const tags = await db.selectFrom("tags").select("slug").orderBy("slug").limit(20).execute();
    const categories = await db.selectFrom("categories").select("slug").orderBy("slug").execute();
    const postIds = posts.map((p) => p.id);
    const paths = [
      "/",
      "/zh",
      ...postIds.map((id) => `/posts/detail/${id}`),
      ...Array.from({ length: 40 }, (_, i) => `/posts/page/${i + 2}`),
      ...tags.map((t) => `/tags/${t.slug}`),
      ...categories.map((c) => `/categories/${c.slug}`),
      ...["sourdough", "css", "cache", "testing", "面包"].map((q) => `/search?q=${encodeURIComponent(q)}`),
    ];
    return { paths, postIds, count: await db.selectFrom("posts").select(db.fn.countAll().as("n")).executeTakeFirst() };
  } finally {
    await close();
  }
}

/** Registers a reader, marks the address verified and signs in: the session cookie. */
async function commenter(base: string, dataDir: string, databaseUrl: string | undefined): Promise<string> {
  const email = `bench-${Date.now()}@example.test`;
  const form = (pathname: string, fields: Record<string, string>) =>
    fetch(`${base}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  await (await form("/register", { email, password: PASSWORD })).arrayBuffer();
  const { db, close } = openDatabase(parseDatabaseUrl(databaseUrl, dataDir), { poolMax: 1 });
  await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
  await close();
  const login = await form("/login", { email, password: PASSWORD });
  await login.arrayBuffer();
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => c.includes("inkwell.session_token"));
  if (!cookie) throw new Error(`could not sign in (${login.status})`);
  return cookie;
}

const line = (label: string, r: LoadResult) =>
  `| ${label} | ${r.requestsPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors + r.non2xx} |`;

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  ensureBuild({ quiet: true });
  const work = options.data ? null : mkdtempSync(path.join(os.tmpdir(), "inkwell-busy-"));
  const dataDir = options.data ?? path.join(work ?? os.tmpdir(), "data");
  try {
    let site = await siteUrls(dataDir, options.databaseUrl).catch(() => null);
    if (!site || Number(site.count?.n ?? 0) === 0) {
      console.log(`seeding ${options.posts} posts`);
      seed(dataDir, options.posts, options.databaseUrl);
      site = await siteUrls(dataDir, options.databaseUrl);
    }
    const env = { ...serverEnv(dataDir, true), ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) };
    const server = await startProcess([...startScriptFlags(), SERVER_ENTRY], env, { timeoutMs: 60_000 });
    try {
      // A small blog has fewer list pages than asked for: those past its end are left out.
      const paths: string[] = [];
      for (const p of site.paths) {
        const answer = await timedGet(`${server.url}${p}`);
        if (answer.status === 404 && p.startsWith("/posts/page/")) continue;
        if (answer.status !== 200) throw new Error(`${p} answered ${answer.status}`);
        paths.push(p);
      }
      const load = { connections: options.connections, duration: options.duration, warmup: 2, paths };
      const quiet = await loadPage(server.url, load);
      const cookie = await commenter(server.url, dataDir, options.databaseUrl);
      let comments = 0;
      let refused = 0;
      const timer = setInterval(() => {
        const id = site.postIds[comments % site.postIds.length];
        comments++;
        void fetch(`${server.url}/posts/detail/${id}`, {
          method: "POST",
          redirect: "manual",
          headers: { origin: server.url, cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "comment", body: `Comment ${comments} while the site is busy.` }),
        }).then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 302) refused++;
        });
      }, options.every);
      const busy = await loadPage(server.url, load);
      clearInterval(timer);
      const dialect = options.databaseUrl ? "PostgreSQL" : "SQLite";
      console.log(`\n${dialect}, ${site.count?.n} posts, ${paths.length} URLs, ${options.connections} connections`);
      console.log("| run | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|");
      console.log(line("quiet", quiet));
      console.log(line(`a comment every ${options.every} ms (${comments} posted, ${refused} refused)`, busy));
      console.log(`busy / quiet throughput: ${Math.round((busy.requestsPerSec / quiet.requestsPerSec) * 100)} %`);
      return refused > 0 ? 1 : 0;
    } finally {
      await server.stop();
    }
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(USAGE);
    process.exitCode = 2;
  }
}
