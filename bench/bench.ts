// `npm run bench`: seeds demo posts into a fresh data directory, starts the
// production server with the render cache on and then off, and loads six pages
// with autocannon; the same pages, saved as files and served from memory by
// bench/static-server.ts, are the ceiling. Prints a Markdown table and writes
// bench/results/latest.json and latest.md. One file (~430 lines): seeding, servers,
// the load runs and the report are one pipeline read top to bottom.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import type { Locale } from "../app/lib/i18n/locale.ts";
import { openDatabase } from "../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../app/server/platform/env.server.ts";
import { ensureBuild, SERVER_ENTRY } from "../scripts/build-if-stale.js";
import { measureUploadStall, type UploadStallResult } from "./import-upload.ts";
import { BROWSER_USER_AGENT, loadPage, timedGet } from "./load.ts";
import { type Running, repoRoot, startProcess } from "./process.ts";
import {
  type BenchResult,
  markdownReport,
  markdownTables,
  type PageResult,
  RUN_KINDS,
  RUN_LABELS,
  type RunKind,
  type RunResult,
} from "./report.ts";
import type { StaticPage } from "./static-server.ts";

export interface BenchOptions {
  posts: number;
  /** Seconds per page. */
  duration: number;
  /** Seconds of unmeasured load before each page. */
  warmup: number;
  /** Requests per page instead of a duration (tests). */
  amount?: number;
  connections: number;
  runs: RunKind[];
  /** Where latest.json and latest.md go. */
  outDir: string;
  /** Keep the temporary data directory (for looking at it afterwards). */
  keep: boolean;
  /** The word /search looks for. */
  search: string;
  /** A data directory to use (and keep) instead of a temporary one; seeded only when it has no database yet. */
  data?: string;
  /** The User-Agent of the load (`--agent`): a browser's by default, none for `--agent none`. */
  userAgent?: string;
  /** The size of the Ghost export uploaded while /healthz is timed (bench/import-upload.ts); 0: not run. */
  uploadBytes: number;
}

const USAGE = `Usage: npm run bench -- [options]

  --posts N          demo posts to seed (default 100, at most 10000)
  --duration S       seconds of load per page (default 10)
  --connections C    concurrent connections (default 32)
  --warmup S         unmeasured seconds before each page (default 1)
  --search WORD      the word /search looks for (default "sourdough", in ~1 post in 12)
  --only RUN         only one run: cache, nocache or static
  --quick            a smoke test: 14 posts, 1 s per page, 4 connections, 0.25 s warm-up
  --out DIR          where to write latest.json and latest.md (default bench/results)
  --keep             keep the temporary data directory
  --agent KIND       browser (default): requests carry a browser's User-Agent and count
                     as reads (views, Insights); none: no User-Agent, nothing counted
  --data DIR         use this data directory and keep it; it is seeded only when it
                     has no database yet, so a second --posts 10000 run skips seeding
  --upload-mb N      the Ghost export uploaded on the admin Import page while /healthz
                     is timed, in MB (default 10, 1 with --quick; 0 leaves the case out)`;

/** The smallest demo that has a second page of posts (10 per page; 3 of the first 14 are not published). */
const QUICK_POSTS = 14;

function positive(name: string, raw: string | undefined, fallback: number, max = Number.POSITIVE_INFINITY): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`--${name} needs a number above 0 (at most ${max})`);
  return n;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      posts: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      warmup: { type: "string" },
      only: { type: "string" },
      quick: { type: "boolean", default: false },
      out: { type: "string" },
      keep: { type: "boolean", default: false },
      data: { type: "string" },
      search: { type: "string" },
      agent: { type: "string" },
      "upload-mb": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick;
  const only = values.only;
  if (only !== undefined && !(RUN_KINDS as readonly string[]).includes(only)) {
    throw new Error("--only takes cache, nocache or static");
  }
  const agent = values.agent ?? "browser";
  if (agent !== "browser" && agent !== "none") throw new Error("--agent takes browser or none");
  const posts = positive("posts", values.posts, quick ? QUICK_POSTS : 100, 10_000);
  if (!Number.isInteger(posts)) throw new Error("--posts needs a whole number");
  const warmup = values.warmup === "0" ? 0 : positive("warmup", values.warmup, quick ? 0.25 : 1);
  const uploadMb = values["upload-mb"] === "0" ? 0 : positive("upload-mb", values["upload-mb"], quick ? 1 : 10, 10);
  return {
    posts,
    duration: positive("duration", values.duration, quick ? 1 : 10),
    warmup,
    connections: Math.round(positive("connections", values.connections, quick ? 4 : 32, 1000)),
    // Static last: its pages are the ones a server run saved.
    runs: only ? [only as RunKind] : ["cache", "nocache", "static"],
    outDir: path.resolve(values.out ?? path.join(repoRoot, "bench", "results")),
    keep: values.keep,
    search: values.search ?? SEARCH_WORD,
    ...(values.data ? { data: path.resolve(values.data) } : {}),
    ...(agent === "browser" ? { userAgent: BROWSER_USER_AGENT } : {}),
    // Just under the default upload limit (10 MiB) for the full 10 MB.
    uploadBytes: Math.round(uploadMb * 1_000_000),
  };
}

/**
 * The word searched for: one demo topic's (~1 post in 12, in title and body), like
 * a visitor looking for something specific. A word in nearly every post, such as
 * "checklist", is the worst case: try it with --search checklist.
 */
export const SEARCH_WORD = "sourdough";

/** The pages measured, by name, in order: request paths. */
export interface Pages extends Record<string, string> {
  home: string;
  list: string;
  post: string;
  tag: string;
  search: string;
  rss: string;
}

type Database = ReturnType<typeof openDatabase>["db"];

/** The newest published post in `locale`: the one a visitor is most likely to open. */
async function newestPost(db: Database, locale: Locale): Promise<{ id: string }> {
  return db
    .selectFrom("posts")
    .innerJoin("postTranslations", "postTranslations.postId", "posts.id")
    .select("posts.id")
    .where("posts.status", "=", "published")
    .where("posts.deletedAt", "is", null)
    .where("posts.publishedAt", "<=", new Date().toISOString())
    .where("postTranslations.locale", "=", locale)
    .orderBy("posts.publishedAt", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
}

/** `/posts/detail/<id>` of the newest published post in `locale`. */
export async function newestPostPath(dataDir: string, locale: Locale, databaseUrl?: string): Promise<string> {
  const { db, close } = openDatabase(parseDatabaseUrl(databaseUrl, dataDir), { poolMax: 1 });
  try {
    return `/posts/detail/${(await newestPost(db, locale)).id}`;
  } finally {
    await close();
  }
}

/** The pages measured, picked from the seeded database. */
export async function pickPages(dataDir: string, search = SEARCH_WORD, databaseUrl?: string): Promise<Pages> {
  const { db, close } = openDatabase(parseDatabaseUrl(databaseUrl, dataDir), { poolMax: 1 });
  try {
    const post = await newestPost(db, "en");
    // The tag with the most posts: the longest tag listing.
    const tag = await db
      .selectFrom("tags")
      .innerJoin("postTags", "postTags.tagId", "tags.id")
      .select(["tags.slug", sql<number>`count(*)`.as("n")])
      .groupBy("tags.slug")
      .orderBy("n", "desc")
      .orderBy("tags.slug")
      .limit(1)
      .executeTakeFirstOrThrow();
    return {
      home: "/",
      list: "/posts/page/2",
      post: `/posts/detail/${post.id}`,
      tag: `/tags/${tag.slug}`,
      search: `/search?q=${encodeURIComponent(search)}`,
      rss: "/rss.xml",
    };
  } finally {
    await close();
  }
}

/** The posts in the site's database; 0 when it has none yet (or no tables). */
export async function countPosts(dataDir: string, databaseUrl?: string): Promise<number> {
  const { db, close } = openDatabase(parseDatabaseUrl(databaseUrl, dataDir), { poolMax: 1 });
  try {
    const row = await db
      .selectFrom("posts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst()
      .catch(() => undefined); // not migrated yet
    return Number(row?.n ?? 0);
  } finally {
    await close();
  }
}

export function seed(dataDir: string, posts: number, databaseUrl?: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ["scripts/cli.ts", "seed", "--demo", "--posts", String(posts)], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`seeding failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return performance.now() - started;
}

export function serverEnv(dataDir: string, renderCache: boolean): Record<string, string> {
  return {
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    LOG_REQUESTS: "false",
    LOG_LEVEL: "warn",
    RATE_LIMIT_MULTIPLIER: "1000",
    RENDER_CACHE: renderCache ? "true" : "false",
  };
}

/**
 * The Node options `npm start` gives the server (the `--` words before the script in
 * package.json's start script), so the bench measures the process production runs.
 */
export function serverNodeFlags(startScript: string): string[] {
  const words = startScript.trim().split(/\s+/);
  if (words[0] !== "node") return [];
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith("--")) break;
    flags.push(word);
  }
  return flags;
}

/** The Node options of one of package.json's scripts (`start`, `cli`), as npm passes them. */
export function scriptFlags(name: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  return serverNodeFlags(pkg.scripts?.[name] ?? "");
}

export const startScriptFlags = (): string[] => scriptFlags("start");

type Log = (line: string) => void;

/**
 * Waits until the server answers /healthz quickly again: requests autocannon gave
 * up on (timeouts) are still being worked on, and would slow the next page down.
 */
export async function settle(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if ((await timedGet(`${url}/healthz`)).ms < 50) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Boot, cold first requests, then each page under load. `save` receives the
 * first answer of every page (the static ceiling serves those).
 */
async function measureRun(
  kind: RunKind,
  start: () => Promise<Running>,
  pages: Record<string, string>,
  options: BenchOptions,
  log: Log,
  save?: (name: string, answer: { contentType: string; body: Buffer }) => void,
  /** Runs on the server once its pages are measured (the import upload case). */
  after?: (url: string) => Promise<void>,
): Promise<RunResult> {
  log(`${RUN_LABELS[kind]}: starting`);
  const server = await start();
  try {
    const cold: Record<string, { ms: number; status: number; bytes: number }> = {};
    for (const [name, pagePath] of Object.entries(pages)) {
      const answer = await timedGet(`${server.url}${pagePath}`);
      if (answer.status !== 200) {
        throw new Error(`${RUN_LABELS[kind]}: ${pagePath} answered ${answer.status}:\n${server.output()}`);
      }
      cold[name] = { ms: answer.ms, status: answer.status, bytes: answer.body.length };
      save?.(name, answer);
    }
    log(`  boot ${Math.round(server.bootMs)} ms, first request ${Object.values(cold)[0]?.ms} ms`);
    const results: Record<string, PageResult> = {};
    for (const [name, pagePath] of Object.entries(pages)) {
      const load = await loadPage(`${server.url}${pagePath}`, options);
      await settle(server.url);
      const alone = await loadPage(`${server.url}${pagePath}`, {
        connections: 1,
        duration: Math.max(1, options.duration / 3),
        warmup: 0,
        ...(options.amount ? { amount: options.amount } : {}),
        ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      });
      const first = cold[name] ?? { ms: 0, status: 0, bytes: 0 };
      results[name] = {
        path: pagePath,
        coldMs: first.ms,
        status: first.status,
        bytes: first.bytes,
        ...load,
        single: { p50Ms: alone.p50Ms, p99Ms: alone.p99Ms, requests: alone.requests },
      };
      log(
        `  ${name.padEnd(7)} ${String(load.requestsPerSec).padStart(9)} req/s  p50 ${load.p50Ms} ms  p99 ${load.p99Ms} ms` +
          `  (1 connection: p50 ${alone.p50Ms} ms)` +
          (load.errors + load.non2xx > 0
            ? `  errors ${load.errors} (${load.timeouts} timeouts), non-2xx ${load.non2xx}`
            : ""),
      );
    }
    await after?.(server.url);
    return {
      kind,
      bootMs: Math.round(server.bootMs),
      coldFirstRequestMs: Object.values(cold)[0]?.ms ?? 0,
      peakRssMiB: Math.round(server.peakRssMiB() * 10) / 10,
      pages: results,
    };
  } finally {
    await server.stop();
  }
}

function parseDatabaseFile(dataDir: string): string {
  const config = parseDatabaseUrl(undefined, dataDir);
  return config.dialect === "sqlite" ? config.file : "";
}

const extensionOf = (contentType: string) => (contentType.includes("xml") ? "xml" : "html");

export async function runBench(options: BenchOptions, log: Log = console.log): Promise<BenchResult> {
  const startedAt = new Date().toISOString();
  const loadStart = os.loadavg()[0] ?? 0;
  ensureBuild({ quiet: true });
  const work = mkdtempSync(path.join(os.tmpdir(), "inkwell-bench-"));
  const dataDir = options.data ?? path.join(work, "data");
  const staticDir = path.join(work, "static");
  mkdirSync(staticDir);
  try {
    let seedMs = 0;
    const reused = options.data !== undefined && existsSync(parseDatabaseFile(dataDir));
    if (reused) {
      const found = await countPosts(dataDir);
      if (found !== options.posts) throw new Error(`${dataDir} has ${found} posts, not ${options.posts}`);
      log(`using the ${found} posts in ${dataDir}`);
    } else {
      log(`seeding ${options.posts} posts into ${dataDir}`);
      seedMs = seed(dataDir, options.posts);
      log(`  seeded in ${(seedMs / 1000).toFixed(1)} s`);
    }
    const pages = await pickPages(dataDir, options.search);

    const manifest: StaticPage[] = [];
    const save = (name: string, answer: { contentType: string; body: Buffer }) => {
      if (manifest.some((p) => p.path === pages[name])) return;
      const file = `${name}.${extensionOf(answer.contentType)}`;
      writeFileSync(path.join(staticDir, file), answer.body);
      manifest.push({ path: pages[name] ?? "/", file, contentType: answer.contentType });
    };
    const startApp = (renderCache: boolean) => () =>
      startProcess([...startScriptFlags(), SERVER_ENTRY], serverEnv(dataDir, renderCache), { timeoutMs: 60_000 });

    const runs: Partial<Record<RunKind, RunResult>> = {};
    let importUpload: UploadStallResult | undefined;
    // On the first server run (the render cache on, as production runs): readers while an export is checked.
    const uploadCase = async (url: string) => {
      if (importUpload || options.uploadBytes === 0) return;
      importUpload = await measureUploadStall(url, dataDir, options.uploadBytes);
      await settle(url);
      const h = importUpload.healthz;
      log(
        `  /healthz while a ${(importUpload.exportBytes / 1e6).toFixed(1)} MB export (${importUpload.posts} posts) ` +
          `is uploaded and checked (${importUpload.uploadMs} ms, ${importUpload.status}): ` +
          `p50 ${h.p50Ms} ms  p99 ${h.p99Ms} ms  max ${h.maxMs} ms over ${h.requests} requests` +
          (h.p99Ms > importUpload.targetMs ? `  OVER the ${importUpload.targetMs} ms target` : ""),
      );
    };
    for (const kind of options.runs) {
      if (kind === "static") {
        if (manifest.length === 0) {
          // --only static: render the pages once to have something to serve.
          const server = await startApp(false)();
          try {
            for (const [name, pagePath] of Object.entries(pages))
              save(name, await timedGet(`${server.url}${pagePath}`));
          } finally {
            await server.stop();
          }
        }
        writeFileSync(path.join(staticDir, "manifest.json"), JSON.stringify(manifest, null, 2));
        runs.static = await measureRun(
          kind,
          () => startProcess(["bench/static-server.ts", staticDir], {}),
          pages,
          options,
          log,
        );
      } else {
        runs[kind] = await measureRun(kind, startApp(kind === "cache"), pages, options, log, save, uploadCase);
      }
    }

    return {
      version: 1,
      startedAt,
      finishedAt: new Date().toISOString(),
      options: {
        posts: options.posts,
        duration: options.duration,
        warmup: options.warmup,
        connections: options.connections,
        runs: options.runs,
        search: options.search,
        agent: options.userAgent ? "browser" : "none",
      },
      machine: {
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
        memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
        loadStart: Math.round(loadStart * 100) / 100,
        loadEnd: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
      },
      seed: { posts: options.posts, ms: Math.round(seedMs), reused },
      pages,
      runs,
      ...(importUpload ? { importUpload } : {}),
    };
  } finally {
    if (options.keep) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

export function writeResults(result: BenchResult, outDir: string): { json: string; md: string } {
  mkdirSync(outDir, { recursive: true });
  const json = path.join(outDir, "latest.json");
  const md = path.join(outDir, "latest.md");
  writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(md, markdownReport(result));
  return { json, md };
}

export async function main(argv: string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const result = await runBench(options);
  const written = writeResults(result, options.outDir);
  console.log(`\n${markdownTables(result)}\n`);
  console.log(`load average ${result.machine.loadStart} → ${result.machine.loadEnd}; wrote ${written.json}`);
  return 0;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
