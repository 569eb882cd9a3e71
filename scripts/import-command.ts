// The import commands (docs/decisions/020-importers.md): `import:markdown`, `import:ghost` and
// `import:wordpress` are rows of IMPORT_COMMANDS, each saying which flags it takes and how it
// opens and reads its source; runImportCommand does the rest for all three: the dry-run report,
// or the durable background job (resuming an unfinished one of the same source) with its
// progress line and final report.
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { pino } from "pino";
import type { DB } from "../app/server/db/db.server.ts";
import type { Locale } from "../app/server/db/schema.server.ts";
import type { ImportedPost, ImportReportLine } from "../app/server/import/core.server.ts";
import { GHOST_SOURCE, streamGhostExport } from "../app/server/import/ghost.server.ts";
import { startPostImportPlan } from "../app/server/import/job/dry-run.server.ts";
import {
  appendPostImportItems,
  beginPostImport,
  dropReadingImports,
  finishPostImportRead,
  unfinishedImportOf,
} from "../app/server/import/job/queue.server.ts";
import { getPostImport } from "../app/server/import/job/report.server.ts";
import { imageResolverFor, importDeps, startPostImports } from "../app/server/import/job/worker.server.ts";
import {
  MARKDOWN_FILE_MAX_BYTES,
  MARKDOWN_SOURCE,
  pagesFolderParts,
  SourceRefused,
  streamMarkdownFolder,
} from "../app/server/import/markdown-folder.server.ts";
import { workerImportRenderer } from "../app/server/import/render-pool.server.ts";
import { streamWxr, WORDPRESS_SOURCE } from "../app/server/import/wordpress.server.ts";
import { unpackZip } from "../app/server/import/zip.server.ts";
import { INSTANCE_ID } from "../app/server/jobs/lease.server.ts";
import type { ImportFileRead } from "../app/server/newsletter/subscriber-csv.server.ts";
import { bulkCollector } from "../app/server/platform/bulk-gc.server.ts";
import type { StorageDriver } from "../app/server/storage/types.server.ts";
import { importMembers, membersLine, readMembers } from "./import-members.ts";
import { countsLine, reportLine } from "./import-report.ts";

export type ImportContext = {
  db: DB;
  storage: StorageDriver;
  uploadMaxBytes: number;
  dataDir: string;
  bump: () => Promise<void>;
};

/** Flags that take a value; `--author` and `--chunk` are every command's. */
type ValueFlag = "--author" | "--chunk" | "--permalink" | "--pages-folder" | "--members" | "--images" | "--lang";

interface Options {
  /** The folder, zip or export file named. */
  source: string;
  dryRun: boolean;
  fetchRemote: boolean;
  author: string | null;
  chunk: number | undefined;
  permalink: string | undefined;
  /** Markdown: the folder whose files are pages (decision 035). */
  pagesFolder: string | undefined;
  members: string | null;
  images: string | null;
  lang: Locale | undefined;
}

/**
 * How a command hands its posts to the runner: it reads its source, passing the posts on in
 * batches as it goes, and returns the report lines of reading. Every reader streams (Markdown,
 * Ghost, WordPress), so memory holds one batch of posts.
 */
export type PostFeed = (onPosts: (posts: ImportedPost[]) => Promise<void>) => Promise<ImportReportLine[]>;

/** A source opened by its command: where its images are, what was unpacked, and how to read it. */
interface OpenedSource {
  /** The folder the import reads (its images are found under it). */
  rootDir: string;
  /** An unpacked zip folder to remove when the import ends. */
  unpacked: string | null;
  feed: PostFeed;
  /** Runs after the posts are written (before the exit code is returned); its code, if not 0, wins. */
  after?: (author: { id: string; email: string }) => Promise<number>;
}

export interface ImportCommand {
  usage: string;
  kind: string;
  /** The value flags it takes besides `--author` and `--chunk`. */
  flags: readonly ValueFlag[];
  /** Other names of flags. */
  aliases?: Readonly<Record<string, ValueFlag>>;
  /**
   * Resume only an unfinished import with the same label too: a file, whose folder is not its
   * identity (two exports may share a folder). A folder is its own identity.
   */
  matchLabel: boolean;
  /** Checks and opens the source named (`given`, resolved); throws SourceRefused. */
  open(given: string, opts: Options, ctx: ImportContext): Promise<OpenedSource>;
}

/** A folder as it is, or a zip unpacked under DATA_DIR/imports (named by its content, so a rerun finds it). */
async function folderOrZip(
  given: string,
  ctx: ImportContext,
  entryMaxBytes: number,
  refusal: string,
): Promise<{ root: string; unpacked: string | null; problems: ImportReportLine[] }> {
  const info = await stat(given).catch(() => null);
  if (!info || (!info.isFile() && !info.isDirectory())) throw new SourceRefused(refusal);
  if (info.isDirectory()) return { root: given, unpacked: null, problems: [] };
  const zip = await unpackZip(given, path.join(ctx.dataDir, "imports"), { entryMaxBytes });
  return { root: zip.root, unpacked: zip.dir, problems: zip.problems };
}

/** An export's images: `--images <dir|zip>`, else the export's own folder. */
async function exportImages(given: string, opts: Options, ctx: ImportContext) {
  if (!opts.images) return { root: path.dirname(given), unpacked: null, problems: [] };
  const images = path.resolve(opts.images);
  return folderOrZip(images, ctx, ctx.uploadMaxBytes, `no such folder or zip: ${images}`);
}

const markdownCommand: ImportCommand = {
  usage:
    "import:markdown <dir|zip> [--dry-run] [--author <email>] [--permalink <pattern>] [--pages-folder <folder>] [--fetch-remote] [--chunk <n>]",
  kind: MARKDOWN_SOURCE,
  flags: ["--permalink", "--pages-folder"],
  matchLabel: false,
  async open(given, opts, ctx) {
    const entryMaxBytes = Math.max(ctx.uploadMaxBytes, MARKDOWN_FILE_MAX_BYTES);
    const zip = await folderOrZip(given, ctx, entryMaxBytes, `not a folder: ${given}`);
    return {
      rootDir: zip.root,
      unpacked: zip.unpacked,
      // The folder is streamed (decision 020, "At scale": Markdown): its summary is known once it is read.
      feed: async (onPosts) => {
        const read = await streamMarkdownFolder(
          zip.root,
          { permalink: opts.permalink, pagesFolder: opts.pagesFolder },
          onPosts,
        );
        const problems = [...zip.problems, ...read.problems];
        console.log(
          `read ${read.files} Markdown file(s) in ${given}: ${read.posts} post(s), ${read.pairs} in two languages, ` +
            `${problems.length} problem(s)`,
        );
        return problems;
      },
    };
  },
};

const ghostCommand: ImportCommand = {
  usage:
    "import:ghost <export.json> [--members <members.csv>] [--images <dir|zip>] [--lang en|zh] [--fetch-remote] [--dry-run] [--author <email>]",
  kind: GHOST_SOURCE,
  flags: ["--members", "--images", "--lang"],
  matchLabel: true,
  async open(given, opts, ctx) {
    const info = await stat(given).catch(() => null);
    if (!info?.isFile()) throw new SourceRefused(`not a file: ${given}`);
    let members: ImportFileRead | null = null;
    const membersFile = opts.members;
    if (membersFile) {
      const m = await readMembers(path.resolve(membersFile), opts.lang ?? "en");
      if (typeof m === "string") throw new SourceRefused(m);
      members = m;
    }
    const images = await exportImages(given, opts, ctx);
    const membersSummary = members ? `; members: ${membersLine(members)}` : "";
    const withMembers = members;
    return {
      rootDir: images.root,
      unpacked: images.unpacked,
      // The export is streamed (decision 020, "At scale": Ghost): its summary is known once it is read.
      feed: async (onPosts) => {
        const read = await streamGhostExport(given, { locale: opts.lang }, onPosts);
        const problems = [...images.problems, ...read.problems];
        console.log(
          `read ${given}: ${read.posts} post(s) and page(s), ${read.pages} page(s), ${problems.length} problem(s)${membersSummary}`,
        );
        return problems;
      },
      ...(withMembers && membersFile
        ? { after: (author) => importMembers(ctx.db, author, membersFile, withMembers, opts.lang ?? "en") }
        : {}),
    };
  },
};

/** A WXR export (and its uploads folder or zip), as the Ghost import runs (docs/decisions/022-wordpress-import.md). */
const wordpressCommand: ImportCommand = {
  usage:
    "import:wordpress <export.xml> [--images <dir|zip>] [--lang en|zh] [--fetch-remote] [--dry-run] [--author <email>]",
  kind: WORDPRESS_SOURCE,
  flags: ["--images", "--lang"],
  aliases: { "--uploads": "--images" },
  matchLabel: true,
  async open(given, opts, ctx) {
    const images = await exportImages(given, opts, ctx);
    return {
      rootDir: images.root,
      unpacked: images.unpacked,
      // The export is streamed (decision 022, "At scale"): its summary is known once it is read.
      feed: async (onPosts) => {
        const seen = { posts: 0, pages: 0, pairs: 0, comments: 0 };
        const read = await streamWxr(given, { locale: opts.lang }, async (posts) => {
          for (const p of posts) {
            seen.posts += 1;
            if (p.kind === "page") seen.pages += 1;
            if (p.translations.length > 1) seen.pairs += 1;
            seen.comments += p.comments?.length ?? 0;
          }
          await onPosts(posts);
        });
        const problems = [...images.problems, ...read.problems];
        console.log(
          `read ${given}: ${seen.posts} post(s) and page(s), ${seen.pages} page(s), ${seen.pairs} in two languages, ` +
            `${seen.comments} comment(s), ${read.attachments} attachment(s), ${problems.length} problem(s)`,
        );
        return problems;
      },
    };
  },
};

/** The import commands of `npm run cli`, by name. */
export const IMPORT_COMMANDS = {
  "import:markdown": markdownCommand,
  "import:ghost": ghostCommand,
  "import:wordpress": wordpressCommand,
} as const satisfies Record<string, ImportCommand>;

export type ImportCommandName = keyof typeof IMPORT_COMMANDS;

/** The command's arguments, or null when they are not what its usage says. */
export function parseOptions(args: readonly string[], command: ImportCommand): Options | null {
  const out: Options = {
    source: "",
    dryRun: false,
    fetchRemote: false,
    author: null,
    chunk: undefined,
    permalink: undefined,
    pagesFolder: undefined,
    members: null,
    images: null,
    lang: undefined,
  };
  const takes = new Set<string>(["--author", "--chunk", ...command.flags]);
  for (let i = 0; i < args.length; i++) {
    const given = args[i] ?? "";
    const a = command.aliases?.[given] ?? given;
    if (a === "--dry-run") out.dryRun = true;
    else if (a === "--fetch-remote") out.fetchRemote = true;
    else if (takes.has(a)) {
      const v = args[++i];
      if (!v || v.startsWith("--")) return null;
      if (a === "--author") out.author = v;
      else if (a === "--permalink") out.permalink = v;
      else if (a === "--pages-folder") {
        if (pagesFolderParts(v) === null) return null;
        out.pagesFolder = v;
      } else if (a === "--members") out.members = v;
      else if (a === "--images") out.images = v;
      else if (a === "--lang") {
        if (v !== "en" && v !== "zh") return null;
        out.lang = v;
      } else {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 500) return null;
        out.chunk = n;
      }
    } else if (a.startsWith("--") || out.source) return null;
    else out.source = a;
  }
  return out.source ? out : null;
}

/** The account the posts belong to: `--author`, else the first admin who has an account. */
export async function findAuthor(db: DB, email: string | null): Promise<{ id: string; email: string } | null> {
  let query = db.selectFrom("users").select(["users.id", "users.email"]);
  query = email
    ? query.where("users.email", "=", email.trim().toLowerCase())
    : query.innerJoin("admins", "admins.email", "users.email").orderBy("admins.createdAt").orderBy("users.email");
  return (await query.executeTakeFirst()) ?? null;
}

/** Runs one import command to its end; the process's exit code. */
export async function runImportCommand(name: ImportCommandName, args: string[], ctx: ImportContext): Promise<number> {
  const command: ImportCommand = IMPORT_COMMANDS[name];
  const opts = parseOptions(args, command);
  if (!opts) {
    console.error(`usage: ${command.usage}`);
    return 2;
  }
  const given = path.resolve(opts.source);
  let source: OpenedSource | null = null;
  const run = new ImportRun(ctx, command, opts, given);
  try {
    source = await command.open(given, opts, ctx);
    return await run.start(source);
  } catch (error) {
    // Not a folder, not an export, too many posts: refused, and the import it began is dropped.
    if (!(error instanceof SourceRefused)) throw error;
    if (source) await run.tidy(source);
    console.error(`import refused: ${error.message}`);
    return 2;
  }
}

/** One run of a command over an opened source. */
class ImportRun {
  private readonly ctx: ImportContext;
  private readonly command: ImportCommand;
  private readonly opts: Options;
  /** The source named, resolved: the import's label. */
  private readonly given: string;

  constructor(ctx: ImportContext, command: ImportCommand, opts: Options, given: string) {
    this.ctx = ctx;
    this.command = command;
    this.opts = opts;
    this.given = given;
  }

  /** The unfinished import of this source (a run that was killed), if any. */
  private async unfinished(rootDir: string): Promise<string | null> {
    const { db } = this.ctx;
    const id = await unfinishedImportOf(db, this.command.kind, rootDir);
    if (!id || !this.command.matchLabel) return id;
    return (await getPostImport(db, id))?.label === this.given.slice(0, 500) ? id : null;
  }

  /** Removes the unpacked zip, unless an unfinished import of the same source still reads it. */
  async tidy(source: OpenedSource): Promise<void> {
    if (source.unpacked && !(await this.unfinished(source.rootDir)))
      await rm(source.unpacked, { recursive: true, force: true });
  }

  async start(source: OpenedSource): Promise<number> {
    if (this.opts.dryRun) return this.dryRun(source);
    const { db } = this.ctx;
    const author = await findAuthor(db, this.opts.author);
    if (!author) {
      console.error(
        this.opts.author
          ? `no account with the e-mail ${this.opts.author}`
          : "no admin account to own the posts yet: pass --author <email> of an existing account",
      );
      return 2;
    }
    const id = await this.resumeOrRead(source, author);
    const code = await this.work(id, source);
    const later = source.after ? await source.after(author) : 0;
    return later !== 0 ? later : code;
  }

  /** Counted and reported as the posts come: nothing but the counts is held. */
  private async dryRun(source: OpenedSource): Promise<number> {
    const { kind } = this.command;
    const plan = startPostImportPlan(this.ctx.db, {
      kind,
      images: imageResolverFor(kind, source.rootDir, this.ctx.uploadMaxBytes),
      onLine: (l) => console.log(reportLine(l)),
      fetchRemote: this.opts.fetchRemote,
    });
    plan.problems(
      await source.feed(async (posts) => {
        for (const post of posts) await plan.add(post);
      }),
    );
    console.log(`dry run, nothing written; an import would have: ${countsLine(plan.counts)}`);
    // Kept while a killed import of the same zip still needs it.
    await this.tidy(source);
    return 0;
  }

  /** The unfinished import of this source, or a new one with the source read into it. */
  private async resumeOrRead(source: OpenedSource, author: { id: string; email: string }): Promise<string> {
    const { db } = this.ctx;
    const { kind, matchLabel } = this.command;
    const { rootDir } = source;
    const unfinished = await this.unfinished(rootDir);
    if (unfinished) {
      const job = await getPostImport(db, unfinished);
      console.log(
        `resuming the unfinished import of this ${matchLabel ? "export" : "folder"} at ${job?.processed ?? 0}/${job?.total ?? 0}`,
      );
      return unfinished;
    }
    // A run killed while reading left its import `reading`: nothing was written to the blog, so it
    // is dropped and the source read again (decision 020, "At scale").
    const mine = matchLabel ? this.given : undefined;
    await dropReadingImports(db, kind, rootDir, mine);
    const reading = await beginPostImport(db, {
      kind,
      label: this.given,
      rootDir,
      actor: author,
      authorId: author.id,
      fetchRemote: this.opts.fetchRemote,
    });
    try {
      const append = async (posts: ImportedPost[], problems: ImportReportLine[] = []) => {
        if (!(await appendPostImportItems(db, reading, posts, problems)))
          throw new Error("the import was dropped while its source was read (another run of the same source?)");
      };
      // Reading a large export allocates steadily too: collected as it goes (app/server/bulk-gc.server.ts).
      const collector = bulkCollector();
      const problems = await source.feed(async (posts) => {
        await append(posts);
        collector.afterWork();
      });
      await append([], problems);
      if (!(await finishPostImportRead(db, reading)))
        throw new Error("the import was dropped while its source was read");
    } catch (error) {
      // A source refused halfway through (broken XML after the first posts): nothing is kept.
      await dropReadingImports(db, kind, rootDir, mine);
      throw error;
    }
    return reading;
  }

  /**
   * Runs the import job on this process until the import ends, printing its progress and its
   * report: 0 when it is done, 1 when it failed (after repeated errors).
   */
  private async work(id: string, source: OpenedSource): Promise<number> {
    const { db, storage, uploadMaxBytes, bump } = this.ctx;
    const log = pino({ level: "silent" });
    // Posts render on a worker thread while this one writes the chunk before (render-pool.server.ts).
    const renderer = workerImportRenderer({
      url: new URL("../app/server/import/render-worker.server.ts", import.meta.url),
    });
    const worker = startPostImports(importDeps(db, storage, uploadMaxBytes, log, renderer), log, {
      intervalMs: 1000,
      holder: `cli:${INSTANCE_ID}`,
      ...(this.opts.chunk ? { chunk: this.opts.chunk } : {}),
      onWritten: bump,
    });
    let shown = -1;
    try {
      for (;;) {
        const job = await getPostImport(db, id);
        if (!job) throw new Error("the import disappeared");
        if (job.processed !== shown) {
          shown = job.processed;
          const width = 30;
          const done = job.total === 0 ? width : Math.round((job.processed / job.total) * width);
          console.log(
            `[${"#".repeat(done)}${".".repeat(width - done)}] posts ${job.processed}/${job.total}: ${countsLine(job)}`,
          );
        }
        if (job.status === "done" || job.status === "failed") {
          console.log(job.status === "done" ? "report:" : "the import failed after repeated errors; report:");
          for (const line of job.report)
            if (line.outcome !== "imported" && line.outcome !== "updated") console.log(reportLine(line));
          console.log(`${job.status === "done" ? "done" : "failed"}: ${countsLine(job)}`);
          if (source.unpacked) await rm(source.unpacked, { recursive: true, force: true });
          return job.status === "done" ? 0 : 1;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await worker.stop();
      await renderer.close();
      await bump();
    }
  }
}

/**
 * How far V8 lets the old generation grow past what is live after each full collection, while
 * the CLI imports (decision 020, "At scale"). V8's default factor (up to 4x, more when the
 * collector's threads are starved on a busy machine) let a 2,000-post import keep ~200 MiB of
 * old space for ~50 MiB of live objects; at 25 % the peak RSS growth fell under 150 MiB at no
 * measurable cost in time.
 */
export const IMPORT_HEAP_GROWING_PERCENT = 25;

/**
 * Sets V8's heap growing factor for an import command, unless the user set one (in `NODE_OPTIONS`
 * or on node's command line). Returns the flag it set, or null. V8 reads this flag at each full
 * collection, so setting it once the process runs takes effect (unlike the heap's size limits).
 */
export function tuneImportHeap(
  setFlags: (flags: string) => void,
  given: { execArgv: readonly string[]; nodeOptions: string | undefined },
): string | null {
  const named = (a: string) => /^--heap[-_]growing[-_]percent(=|$)/.test(a);
  if (given.execArgv.some(named) || (given.nodeOptions ?? "").split(/\s+/).some(named)) return null;
  const flag = `--heap-growing-percent=${IMPORT_HEAP_GROWING_PERCENT}`;
  setFlags(flag);
  return flag;
}
