// `npm run bench:scale`: what a page costs as the blog grows (issue 29). For each size
// and dialect it seeds a demo blog once (kept for the next run), then measures eight
// pages with the render cache off and on: req/s at --connections, p50/p99 with one
// connection, and on PostgreSQL the rows read from the content tables per request
// (pg_stat_user_tables over the one-connection run: rows scanned plus index entries read). Prints one Markdown table and the
// issue's ratios, and writes bench/results/scale.json and scale.md.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { openDatabase } from "../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../app/server/platform/env.server.ts";
import { ensureBuild, SERVER_ENTRY } from "../scripts/build-if-stale.js";
import { countPosts, pickPages, SEARCH_WORD, seed, serverEnv, settle, startScriptFlags } from "./bench.ts";
import { loadPage, timedGet } from "./load.ts";
import { repoRoot, startProcess } from "./process.ts";

const USAGE = `Usage: npm run bench:scale -- [options]

  --sizes N,N,…        blog sizes in posts (default 100,10000; at most 100000)
  --database-url URL   also measure PostgreSQL: an admin URL; a database
                       inkwell_scale_<N> per size is created beside it and kept
  --only-postgres      skip SQLite (with --database-url)
  --data-root DIR      where the SQLite sites are kept (default $TMPDIR/inkwell-scale)
  --duration S         seconds of load per page at --connections (default 5)
  --connections C      concurrent connections (default 32)
  --out DIR            where scale.json and scale.md go (default bench/results)`;

/** The tables a public page reads: their rows read per request are the figure. */
const CONTENT_TABLES = [
  "posts",
  "postTranslations",
  "tags",
  "postTags",
  "categories",
  "comments",
  "postSearch",
  "users",
];
const POSTS_PER_PAGE = 10;
const DEEP_PAGE = 900;
const CHINESE_WORD = "酸面包";

interface Options {
  sizes: number[];
  adminUrl?: string;
  sqlite: boolean;
  dataRoot: string;
  duration: number;
  connections: number;
  outDir: string;
}

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: "string", default: "100,10000" },
      "database-url": { type: "string" },
      "only-postgres": { type: "boolean", default: false },
      "data-root": { type: "string" },
      duration: { type: "string", default: "5" },
      connections: { type: "string", default: "32" },
      out: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const whole = (name: string, raw: string, max: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0 || n > max) throw new Error(`${name} needs whole numbers from 1 to ${max}`);
    return n;
  };
  if (values["only-postgres"] && !values["database-url"]) throw new Error("--only-postgres needs --database-url");
  return {
    sizes: values.sizes.split(",").map((s) => whole("--sizes", s.trim(), 100_000)),
    ...(values["database-url"] ? { adminUrl: values["database-url"] } : {}),
    sqlite: !values["only-postgres"],
    dataRoot: path.resolve(values["data-root"] ?? path.join(os.tmpdir(), "inkwell-scale")),
    duration: whole("--duration", values.duration, 600),
    connections: whole("--connections", values.connections, 1000),
    outDir: path.resolve(values.out ?? path.join(repoRoot, "bench", "results")),
  };
}

interface Site {
  posts: number;
  dialect: "sqlite" | "postgres";
  dataDir: string;
  databaseUrl?: string;
}

/** The PostgreSQL database for one size, created beside the admin URL's when missing. */
async function postgresUrl(adminUrl: string, posts: number): Promise<string> {
  const name = `inkwell_scale_${posts}`;
  const admin = openDatabase({ dialect: "postgres", connectionString: adminUrl }, { poolMax: 1 });
  try {
    const found = await sql`select 1 from pg_database where datname = ${name}`.execute(admin.db);
    if (found.rows.length === 0) await sql`create database ${sql.id(name)}`.execute(admin.db);
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Seeds the site unless it already holds exactly `posts` posts. */
async function prepare(site: Site): Promise<void> {
  const found = await countPosts(site.dataDir, site.databaseUrl);
  if (found === site.posts) return;
  if (found !== 0) throw new Error(`${site.databaseUrl ?? site.dataDir} has ${found} posts, not ${site.posts}`);
  console.log(`seeding ${site.posts} posts (${site.dialect})`);
  const ms = seed(site.dataDir, site.posts, site.databaseUrl);
  console.log(`  seeded in ${(ms / 1000).toFixed(0)} s`);
}

/** The pages measured: the bench's six but the feed, a deep list page and a Chinese search. */
async function pagesOf(site: Site): Promise<Record<string, string>> {
  const picked = await pickPages(site.dataDir, SEARCH_WORD, site.databaseUrl);
  const { db, close } = openDatabase(parseDatabaseUrl(site.databaseUrl, site.dataDir), { poolMax: 1 });
  let published = 0;
  try {
    const row = await db
      .selectFrom("posts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "published")
      .where("deletedAt", "is", null)
      .executeTakeFirstOrThrow();
    published = Number(row.n);
  } finally {
    await close();
  }
  const lastPage = Math.max(1, Math.ceil(published / POSTS_PER_PAGE));
  return {
    home: picked.home,
    list: picked.list,
    deep: `/posts/page/${Math.min(DEEP_PAGE, lastPage)}`,
    post: picked.post,
    tag: picked.tag,
    search: picked.search,
    "search zh": `/zh/search?q=${encodeURIComponent(CHINESE_WORD)}`,
  };
}

/**
 * Rows read so far from the content tables (PostgreSQL's cumulative statistics): rows
 * a sequential scan read plus index entries an index scan read (an index-only count
 * reads entries without touching the table, and they count too).
 */
async function rowsRead(databaseUrl: string): Promise<number> {
  // A server backend reports its counts about a second after it goes idle.
  await new Promise((r) => setTimeout(r, 1500));
  const { db, close } = openDatabase({ dialect: "postgres", connectionString: databaseUrl }, { poolMax: 1 });
  try {
    const tables = sql.join(CONTENT_TABLES);
    const result = await sql<{ n: string }>`
      select (
        (select coalesce(sum(seq_tup_read), 0) from pg_stat_user_tables where relname in (${tables}))
        + (select coalesce(sum(idx_tup_read), 0) from pg_stat_user_indexes where relname in (${tables}))
      )::text as n`.execute(db);
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await close();
  }
}

export interface Row {
  posts: number;
  dialect: string;
  cache: "off" | "on";
  page: string;
  path: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  rowsPerRequest: number | null;
  errors: number;
}

async function measure(site: Site, cache: boolean, options: Options): Promise<Row[]> {
  const pages = await pagesOf(site);
  const env = { ...serverEnv(site.dataDir, cache), ...(site.databaseUrl ? { DATABASE_URL: site.databaseUrl } : {}) };
  const server = await startProcess([...startScriptFlags(), SERVER_ENTRY], env, { timeoutMs: 120_000 });
  const rows: Row[] = [];
  try {
    for (const pagePath of Object.values(pages)) {
      const first = await timedGet(`${server.url}${pagePath}`);
      if (first.status !== 200) throw new Error(`${pagePath} answered ${first.status}`);
    }
    for (const [page, pagePath] of Object.entries(pages)) {
      const url = `${server.url}${pagePath}`;
      const load = await loadPage(url, { connections: options.connections, duration: options.duration, warmup: 1 });
      await settle(server.url);
      const before = site.databaseUrl ? await rowsRead(site.databaseUrl) : 0;
      const alone = await loadPage(url, { connections: 1, duration: Math.max(2, options.duration / 2), warmup: 0 });
      const after = site.databaseUrl ? await rowsRead(site.databaseUrl) : 0;
      const row: Row = {
        posts: site.posts,
        dialect: site.dialect,
        cache: cache ? "on" : "off",
        page,
        path: pagePath,
        requestsPerSec: load.requestsPerSec,
        p50Ms: alone.p50Ms,
        p99Ms: alone.p99Ms,
        rowsPerRequest: site.databaseUrl && alone.requests > 0 ? Math.round((after - before) / alone.requests) : null,
        errors: load.errors + load.non2xx + alone.errors + alone.non2xx,
      };
      rows.push(row);
      console.log(
        `  ${site.dialect} ${site.posts} cache ${row.cache} ${page.padEnd(9)} ${String(row.requestsPerSec).padStart(8)} req/s` +
          `  1 conn p50 ${row.p50Ms} p99 ${row.p99Ms} ms` +
          (row.rowsPerRequest === null ? "" : `  ${row.rowsPerRequest} rows/request`) +
          (row.errors ? `  ${row.errors} errors` : ""),
      );
    }
  } finally {
    await server.stop();
  }
  return rows;
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? `${Math.round((a / b) * 100)} %` : "–";

const thousands = (n: number) => n.toLocaleString("en-US");

/**
 * One table for docs/performance.md: a row per page and dialect, a column per blog size with the
 * cache off (req/s at --connections · p99 of one connection · rows read per request on
 * PostgreSQL), then the cache-on req/s per size.
 */
export function summary(rows: Row[]): string {
  const sizes = [...new Set(rows.map((r) => r.posts))].sort((a, b) => a - b);
  const pages = [...new Set(rows.map((r) => r.page))];
  const dialects = [...new Set(rows.map((r) => r.dialect))];
  const find = (posts: number, dialect: string, cache: string, page: string) =>
    rows.find((r) => r.posts === posts && r.dialect === dialect && r.cache === cache && r.page === page);
  const off = (r: Row | undefined) =>
    r
      ? [
          `${Math.round(r.requestsPerSec)}`,
          `${r.p99Ms}`,
          ...(r.rowsPerRequest === null ? [] : [`${r.rowsPerRequest}`]),
        ].join(" · ")
      : "–";
  const lines = [
    `| page | dialect | ${sizes.map((n) => `${thousands(n)} posts, cache off`).join(" | ")} | ${sizes.map((n) => `${thousands(n)}, cache on`).join(" | ")} |`,
    `| ---- | ------- |${sizes.map(() => " ---: |").join("")}${sizes.map(() => " ---: |").join("")}`,
  ];
  for (const page of pages) {
    for (const dialect of dialects) {
      const cells = sizes.map((n) => off(find(n, dialect, "off", page)));
      const cached = sizes.map((n) => {
        const r = find(n, dialect, "on", page);
        return r ? `${Math.round(r.requestsPerSec)}` : "–";
      });
      lines.push(`| ${page} | ${dialect} | ${cells.join(" | ")} | ${cached.join(" | ")} |`);
    }
  }
  return lines.join("\n");
}

/** The summary, every figure, then the issue's targets as ratios of the measured figures. */
export function report(rows: Row[]): string {
  const lines = [
    "Cache off: req/s · one connection's p99 in ms · rows read per request (PostgreSQL). Cache on: req/s.",
    "",
    summary(rows),
    "",
    "Every figure:",
    "",
    "| posts | dialect | cache | page | req/s | 1 conn p50 ms | 1 conn p99 ms | rows/request |",
    "| ----: | ------- | ----- | ---- | ----: | ------------: | ------------: | -----------: |",
    ...rows.map(
      (r) =>
        `| ${r.posts} | ${r.dialect} | ${r.cache} | ${r.page} | ${r.requestsPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.rowsPerRequest ?? "–"} |`,
    ),
  ];
  const find = (posts: number, dialect: string, cache: string, page: string) =>
    rows.find((r) => r.posts === posts && r.dialect === dialect && r.cache === cache && r.page === page);
  const sizes = [...new Set(rows.map((r) => r.posts))].sort((a, b) => a - b);
  const smallest = sizes[0];
  const dialects = [...new Set(rows.map((r) => r.dialect))];
  const pages = [...new Set(rows.map((r) => r.page))];
  lines.push("", "Throughput against the smallest blog (cache off), and the deep list page against page 2:", "");
  lines.push(`| dialect | posts | ${pages.join(" | ")} | deep / list |`);
  lines.push(`| ------- | ----: |${pages.map(() => " ---: |").join("")} ---: |`);
  for (const dialect of dialects) {
    for (const posts of sizes) {
      if (posts === smallest || smallest === undefined) continue;
      const cells = pages.map((page) =>
        ratio(find(posts, dialect, "off", page)?.requestsPerSec, find(smallest, dialect, "off", page)?.requestsPerSec),
      );
      const deep = ratio(
        find(posts, dialect, "off", "deep")?.requestsPerSec,
        find(posts, dialect, "off", "list")?.requestsPerSec,
      );
      lines.push(`| ${dialect} | ${posts} vs ${smallest} | ${cells.join(" | ")} | ${deep} |`);
    }
  }
  if (dialects.includes("postgres") && dialects.includes("sqlite")) {
    lines.push("", "PostgreSQL against SQLite, post page, cache off:", "");
    for (const posts of sizes) {
      lines.push(
        `- ${posts} posts: ${ratio(find(posts, "postgres", "off", "post")?.requestsPerSec, find(posts, "sqlite", "off", "post")?.requestsPerSec)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

async function main(argv: string[]): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  ensureBuild({ quiet: true });
  const sites: Site[] = [];
  for (const posts of options.sizes) {
    if (options.sqlite) {
      sites.push({ posts, dialect: "sqlite", dataDir: path.join(options.dataRoot, `sqlite-${posts}`) });
    }
    if (options.adminUrl) {
      sites.push({
        posts,
        dialect: "postgres",
        dataDir: path.join(options.dataRoot, `postgres-${posts}`),
        databaseUrl: await postgresUrl(options.adminUrl, posts),
      });
    }
  }
  const rows: Row[] = [];
  for (const site of sites) {
    mkdirSync(site.dataDir, { recursive: true });
    await prepare(site);
    for (const cache of [false, true]) rows.push(...(await measure(site, cache, options)));
  }
  const text = report(rows);
  console.log(`\n${text}`);
  mkdirSync(options.outDir, { recursive: true });
  const meta = { at: new Date().toISOString(), load: os.loadavg()[0], cpus: os.cpus().length, options };
  writeFileSync(path.join(options.outDir, "scale.json"), `${JSON.stringify({ ...meta, rows }, null, 2)}\n`);
  writeFileSync(path.join(options.outDir, "scale.md"), text);
  return rows.some((r) => r.errors > 0) ? 1 : 0;
}

if (import.meta.main) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  }
}
