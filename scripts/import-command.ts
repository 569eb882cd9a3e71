// `npm run cli -- import:markdown <dir> [--dry-run] [--author email] [--permalink pattern]`:
// reads a folder of Markdown posts, then imports it as a durable background job
// (docs/decisions/020-importers.md), printing progress and the final report.
import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pino } from "pino";
import { type ImportFileRead, readSubscriberCsv } from "../app/server/admin/subscriber-csv.server.ts";
import { bulkCollector } from "../app/server/bulk-gc.server.ts";
import type { DB } from "../app/server/db/db.server.ts";
import type { Locale } from "../app/server/db/schema.server.ts";
import type { ImportCounts, ImportedPost, ImportReportLine } from "../app/server/import/core.server.ts";
import { GHOST_SOURCE, ghostImageResolver, streamGhostExport } from "../app/server/import/ghost.server.ts";
import { type ImageResolver, localImageResolver } from "../app/server/import/images.server.ts";
import { startPostImportPlan } from "../app/server/import/job/dry-run.server.ts";
import {
  appendPostImportItems,
  beginPostImport,
  dropReadingImports,
  finishPostImportRead,
  unfinishedImportOf,
} from "../app/server/import/job/queue.server.ts";
import { getPostImport } from "../app/server/import/job/report.server.ts";
import { importDeps, startPostImports } from "../app/server/import/job/worker.server.ts";
import {
  MARKDOWN_FILE_MAX_BYTES,
  MARKDOWN_SOURCE,
  SourceRefused,
  streamMarkdownFolder,
} from "../app/server/import/markdown-folder.server.ts";
import { workerImportRenderer } from "../app/server/import/render-pool.server.ts";
import { WORDPRESS_PAGES_CATEGORY } from "../app/server/import/wordpress/items.server.ts";
import { streamWxr, WORDPRESS_SOURCE, wordpressImageResolver } from "../app/server/import/wordpress.server.ts";
import { unpackZip } from "../app/server/import/zip.server.ts";
import { INSTANCE_ID } from "../app/server/jobs/lease.server.ts";
import { startSubscriberImports } from "../app/server/jobs/subscriber-import.server.ts";
import { queueSubscriberImport } from "../app/server/repos/subscriber-import.server.ts";
import type { StorageDriver } from "../app/server/storage/types.server.ts";

const USAGE =
  "import:markdown <dir|zip> [--dry-run] [--author <email>] [--permalink <pattern>] [--fetch-remote] [--chunk <n>]";

interface Options {
  dir: string;
  dryRun: boolean;
  fetchRemote: boolean;
  author: string | null;
  permalink: string | undefined;
  chunk: number | undefined;
}

function parseOptions(args: string[]): Options | null {
  const out: Options = {
    dir: "",
    dryRun: false,
    fetchRemote: false,
    author: null,
    permalink: undefined,
    chunk: undefined,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--dry-run") out.dryRun = true;
    else if (a === "--fetch-remote") out.fetchRemote = true;
    else if (a === "--author") out.author = args[++i] ?? null;
    else if (a === "--permalink") out.permalink = args[++i];
    else if (a === "--chunk") {
      const n = Number(args[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 500) return null;
      out.chunk = n;
    } else if (a.startsWith("--") || out.dir) return null;
    else out.dir = a;
  }
  if (!out.dir || (out.author === null && args.includes("--author"))) return null;
  if (args.includes("--permalink") && !out.permalink) return null;
  return out;
}

/** The account the posts belong to: `--author`, else the first admin who has an account. */
export async function findAuthor(db: DB, email: string | null): Promise<{ id: string; email: string } | null> {
  let query = db.selectFrom("users").select(["users.id", "users.email"]);
  query = email
    ? query.where("users.email", "=", email.trim().toLowerCase())
    : query.innerJoin("admins", "admins.email", "users.email").orderBy("admins.createdAt").orderBy("users.email");
  return (await query.executeTakeFirst()) ?? null;
}

export const REASONS: Record<string, string> = {
  unchanged: "unchanged since the last import",
  editedSinceImport: "edited on this site since it was imported: left as it is",
  inTrash: "in the trash: left there",
  bodyTooLong: "body longer than 200,000 characters",
  bodyTooDeep: "body nested too deeply",
  fileTooLarge: "file larger than 1 MiB",
  frontMatterInvalid: "front matter does not parse",
  frontMatterUnclosed: "front matter is never closed",
  frontMatterTooLarge: "front matter larger than 64 KiB",
  frontMatterAliases: "front matter refused: too many YAML aliases (an alias bomb?)",
  pairingAmbiguous: "languages could not be paired",
  notFound: "no such file in the folder",
  outside: "outside the folder: not read",
  tooLarge: "larger than UPLOAD_MAX_BYTES",
  "invalid-format": "not an image the site accepts",
  "unsafe-svg": "an SVG with script: refused",
  "too-many-pixels": "too many pixels",
  redirectExists: "old address already redirects elsewhere: kept",
  redirectInvalid: "old address cannot be redirected",
  titleCut: "title cut to 200 characters",
  summaryCut: "summary cut to 500 characters",
  tagsCut: "more than 10 tags: the first 10 kept",
  dateInvalid: "date not understood: none set",
  statusMixed: "one language is a draft: imported as a draft",
  zipEntryUnsafe: "a zip entry whose name leads out of the folder: not unpacked",
  zipEntryBroken: "a zip entry that does not unpack",
  zipTruncated: "the zip ends in the middle of an entry",
  ghostKeptAsHtml: "a Ghost card kept as HTML (sanitised when shown)",
  ghostFlattened: "HTML nested too deeply: kept as text",
  ghostNoHtml: "no HTML or Lexical in the export (Mobiledoc only): plain text kept",
  ghostAuthor: "written by (the posts belong to the importing account)",
  ghostMembersOnly: "members-only in Ghost: public here",
  ghostStatus: "unknown Ghost status: imported as a draft",
  ghostNoId: "a Ghost post without an id",
  ghostDuplicateId: "a second Ghost post with the same id",
  ghostCoAuthors: "co-authors in Ghost (the post has one author here: the first)",
  ghostAuthorUnknown: "the post's Ghost author is not in the export: the importing account is its author",
  ghostLexicalUnknown: "a Lexical node not converted (its text was kept)",
  ghostLexicalDropped: "a Ghost card with nothing to show here (sign-up form, paywall, e-mail only): left out",
  ghostLexicalInvalid: "the Lexical body does not parse",
  imageRemoteKept: "remote image kept as a link (--fetch-remote fetches it)",
  imageRemoteFetch: "remote image, fetched when imported",
  remoteUrl: "remote image: not an http(s) address it may fetch",
  remotePrivate: "remote image on a private, loopback or link-local address: refused",
  remoteDns: "remote image: its host does not resolve",
  remoteTimeout: "remote image: timed out",
  remoteTooLarge: "remote image larger than UPLOAD_MAX_BYTES",
  remoteType: "remote address is not an image",
  remoteStatus: "remote image: the server did not answer 200",
  remoteRedirects: "remote image: too many redirects",
  remoteError: "remote image: could not be fetched",
  authorCreated: "author account made for this Ghost author (no login)",
  authorMatched: "Ghost author matched to an existing account by e-mail",
  commentCut: "comment cut to 5,000 characters",
  commentTooDeep: "comment nested too deeply: left out",
  wpShortcodeKept: "shortcode kept as text",
  wpKeptAsHtml: "kept as HTML (sanitised when shown)",
  wpGalleryEmpty: "a [gallery] without pictures in the export: left out",
  wpCommentsSpam: "spam or trashed comments left out",
  wpPingbacks: "pingbacks and trackbacks left out",
  wpAuthor: "written by (the posts belong to the importing account)",
  wpPrivate: "private in WordPress: imported as a draft",
  wpPassword: "password-protected in WordPress: imported as a draft",
  wpStatus: "unknown WordPress status: imported as a draft",
  wpThumbnailMissing: "featured image not in the export",
  wpTrash: "in WordPress's trash: not imported",
  wpAutoDraft: "an empty auto-draft: not imported",
  wpPostType: "items of this type are not imported",
  wpNoId: "a WordPress item without a numeric id",
  wpDuplicateId: "a second WordPress item with the same id",
};

export function reportLine(line: ImportReportLine): string {
  const reason = line.reason ? (REASONS[line.reason] ?? line.reason) : "";
  const detail = line.detail ? ` (${line.detail})` : "";
  return `  ${line.outcome.padEnd(12)} ${line.item}${reason ? `: ${reason}` : ""}${detail}`;
}

export function countsLine(c: ImportCounts): string {
  return (
    `imported ${c.imported}, updated ${c.updated}, skipped ${c.skipped}, failed ${c.failed}; ` +
    `images stored ${c.imagesStored}, missing ${c.imagesMissing}; redirects added ${c.redirectsAdded}` +
    (c.commentsAdded > 0 ? `; comments added ${c.commentsAdded}` : "")
  );
}

export async function importMarkdownCommand(args: string[], ctx: ImportContext): Promise<number> {
  const opts = parseOptions(args);
  if (!opts) {
    console.error(`usage: ${USAGE}`);
    return 2;
  }
  const given = path.resolve(opts.dir);
  let root = given;
  // A zip is unpacked under DATA_DIR/imports (named by its content, so a rerun finds it) and removed when done.
  let unpacked: string | null = null;
  const zipProblems: ImportReportLine[] = [];
  try {
    const info = await stat(given).catch(() => null);
    if (info?.isFile()) {
      const zip = await unpackZip(given, path.join(ctx.dataDir, "imports"), {
        entryMaxBytes: Math.max(ctx.uploadMaxBytes, MARKDOWN_FILE_MAX_BYTES),
      });
      unpacked = zip.dir;
      root = zip.root;
      zipProblems.push(...zip.problems);
    } else if (!info?.isDirectory()) throw new SourceRefused(`not a folder: ${given}`);
  } catch (error) {
    if (error instanceof SourceRefused) {
      console.error(`import refused: ${error.message}`);
      return 2;
    }
    throw error;
  }
  // The folder is streamed (decision 020, "At scale": Markdown): its summary is known once it is read.
  const feed: PostFeed = async (onPosts) => {
    const read = await streamMarkdownFolder(root, { permalink: opts.permalink }, onPosts);
    const problems = [...zipProblems, ...read.problems];
    console.log(
      `read ${read.files} Markdown file(s) in ${given}: ${read.posts} post(s), ${read.pairs} in two languages, ` +
        `${problems.length} problem(s)`,
    );
    return problems;
  };
  try {
    return await runPostImport(ctx, {
      kind: MARKDOWN_SOURCE,
      label: given,
      rootDir: root,
      feed,
      images: localImageResolver(root, ctx.uploadMaxBytes),
      dryRun: opts.dryRun,
      fetchRemote: opts.fetchRemote,
      author: opts.author,
      chunk: opts.chunk,
      unpacked,
    });
  } catch (error) {
    // Too many files: refused, and the import it began is dropped.
    if (error instanceof SourceRefused) {
      console.error(`import refused: ${error.message}`);
      return 2;
    }
    throw error;
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

/**
 * How a command hands its posts to runPostImport: it reads its source, passing the posts on in
 * batches as it goes, and returns the report lines of reading. Every reader streams (Markdown,
 * Ghost, WordPress), so memory holds one batch of posts.
 */
export type PostFeed = (onPosts: (posts: ImportedPost[]) => Promise<void>) => Promise<ImportReportLine[]>;

export type ImportContext = {
  db: DB;
  storage: StorageDriver;
  uploadMaxBytes: number;
  dataDir: string;
  bump: () => Promise<void>;
};

/**
 * What every import command does once its source is read: the dry-run report, or the durable
 * job (resuming an unfinished one of the same source) with its progress line and final report.
 */
export async function runPostImport(
  ctx: ImportContext,
  input: {
    kind: string;
    label: string;
    rootDir: string;
    feed: PostFeed;
    images: ImageResolver;
    dryRun: boolean;
    /** Fetch remote images (SSRF-safe) into the media library instead of keeping them as links. */
    fetchRemote: boolean;
    author: string | null;
    chunk: number | undefined;
    /** Resume only an unfinished import with this label too (sources whose folder is not their identity). */
    matchLabel?: boolean;
    /** An unpacked zip folder to remove when the import ends. */
    unpacked: string | null;
    /** Runs after the posts are written (before the exit code is returned); its code, if not 0, wins. */
    after?: (author: { id: string; email: string }) => Promise<number>;
  },
): Promise<number> {
  const { db } = ctx;
  const { kind, unpacked } = input;
  const root = input.rootDir;
  const given = input.label;
  const unfinished = async () => {
    const id = await unfinishedImportOf(db, kind, root);
    if (!id || !input.matchLabel) return id;
    return (await getPostImport(db, id))?.label === given.slice(0, 500) ? id : null;
  };
  if (input.dryRun) {
    // Counted and reported as the posts come: nothing but the counts is held.
    const plan = startPostImportPlan(db, {
      kind,
      images: input.images,
      onLine: (l) => console.log(reportLine(l)),
      fetchRemote: input.fetchRemote,
    });
    plan.problems(
      await input.feed(async (posts) => {
        for (const post of posts) await plan.add(post);
      }),
    );
    console.log(`dry run, nothing written; an import would have: ${countsLine(plan.counts)}`);
    // Kept while a killed import of the same zip still needs it.
    if (unpacked && !(await unfinished())) await rm(unpacked, { recursive: true, force: true });
    return 0;
  }
  const author = await findAuthor(db, input.author);
  if (!author) {
    console.error(
      input.author
        ? `no account with the e-mail ${input.author}`
        : "no admin account to own the posts yet: pass --author <email> of an existing account",
    );
    return 2;
  }
  let id = await unfinished();
  if (id) {
    const job = await getPostImport(db, id);
    console.log(
      `resuming the unfinished import of this ${input.matchLabel ? "export" : "folder"} at ${job?.processed ?? 0}/${job?.total ?? 0}`,
    );
  } else {
    // A run killed while reading left its import `reading`: nothing was written to the blog, so it
    // is dropped and the source read again (decision 020, "At scale").
    const mine = input.matchLabel ? given : undefined;
    await dropReadingImports(db, kind, root, mine);
    const reading = await beginPostImport(db, {
      kind,
      label: given,
      rootDir: root,
      actor: author,
      authorId: author.id,
      fetchRemote: input.fetchRemote,
    });
    id = reading;
    try {
      const append = async (posts: ImportedPost[], problems: ImportReportLine[] = []) => {
        if (!(await appendPostImportItems(db, reading, posts, problems)))
          throw new Error("the import was dropped while its source was read (another run of the same source?)");
      };
      // Reading a large export allocates steadily too: collected as it goes (app/server/bulk-gc.server.ts).
      const collector = bulkCollector();
      const problems = await input.feed(async (posts) => {
        await append(posts);
        collector.afterWork();
      });
      await append([], problems);
      if (!(await finishPostImportRead(db, reading)))
        throw new Error("the import was dropped while its source was read");
    } catch (error) {
      // A source refused halfway through (broken XML after the first posts): nothing is kept.
      await dropReadingImports(db, kind, root, mine);
      throw error;
    }
  }
  const log = pino({ level: "silent" });
  // Posts render on a worker thread while this one writes the chunk before (render-pool.server.ts).
  const renderer = workerImportRenderer({
    url: new URL("../app/server/import/render-worker.server.ts", import.meta.url),
  });
  const worker = startPostImports(importDeps(db, ctx.storage, ctx.uploadMaxBytes, log, renderer), log, {
    intervalMs: 1000,
    holder: `cli:${INSTANCE_ID}`,
    ...(input.chunk ? { chunk: input.chunk } : {}),
    onWritten: ctx.bump,
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
        if (unpacked) await rm(unpacked, { recursive: true, force: true });
        const code = job.status === "done" ? 0 : 1;
        const later = input.after ? await input.after(author) : 0;
        return later !== 0 ? later : code;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await worker.stop();
    await renderer.close();
    await ctx.bump();
  }
}

const GHOST_USAGE =
  "import:ghost <export.json> [--members <members.csv>] [--images <dir|zip>] [--lang en|zh] [--fetch-remote] [--dry-run] [--author <email>]";

interface GhostOptions {
  file: string;
  members: string | null;
  images: string | null;
  lang: Locale | undefined;
  dryRun: boolean;
  fetchRemote: boolean;
  author: string | null;
  chunk: number | undefined;
}

function parseGhostOptions(args: string[]): GhostOptions | null {
  const out: GhostOptions = {
    file: "",
    members: null,
    images: null,
    lang: undefined,
    dryRun: false,
    fetchRemote: false,
    author: null,
    chunk: undefined,
  };
  const value = (i: number): string | null => {
    const v = args[i];
    return v && !v.startsWith("--") ? v : null;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--dry-run") out.dryRun = true;
    else if (a === "--fetch-remote") out.fetchRemote = true;
    else if (a === "--author" || a === "--members" || a === "--images" || a === "--lang" || a === "--chunk") {
      const v = value(++i);
      if (v === null) return null;
      if (a === "--author") out.author = v;
      else if (a === "--members") out.members = v;
      else if (a === "--images") out.images = v;
      else if (a === "--lang") {
        if (v !== "en" && v !== "zh") return null;
        out.lang = v;
      } else {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 500) return null;
        out.chunk = n;
      }
    } else if (a.startsWith("--") || out.file) return null;
    else out.file = a;
  }
  return out.file ? out : null;
}

const MEMBERS_MAX_BYTES = 50 * 1024 * 1024;

/** Reads a Ghost members CSV with the subscriber import's reader (decision 011); a message when refused. */
async function readMembers(file: string, lang: Locale): Promise<ImportFileRead | string> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return `not a file: ${file}`;
  if (info.size > MEMBERS_MAX_BYTES) return `the members file is larger than 50 MB (${info.size} bytes)`;
  const result = readSubscriberCsv(new Uint8Array(await readFile(file)), lang);
  if (!result.ok) return `the members file is refused: ${result.error.code}`;
  const { ok: _ok, ...read } = result;
  return read;
}

const membersLine = (r: ImportFileRead) =>
  `${r.candidates.length} to subscribe, ${r.notSubscribed} not subscribed to e-mails, ${r.duplicates} duplicate(s), ${r.invalid} invalid`;

/** Queues the members as a subscriber import and works it through to the end. */
async function importMembers(
  ctx: ImportContext,
  actor: { id: string; email: string },
  file: string,
  read: ImportFileRead,
  lang: Locale,
) {
  const { db } = ctx;
  const id = await queueSubscriberImport(db, actor, { fileName: path.basename(file), defaultLanguages: lang, read });
  const log = pino({ level: "silent" });
  const worker = startSubscriberImports(db, log, { intervalMs: 1000, holder: `cli:${INSTANCE_ID}` });
  try {
    for (;;) {
      const job = await db.selectFrom("subscriberImports").selectAll().where("id", "=", id).executeTakeFirst();
      if (!job) throw new Error("the members import disappeared");
      if (job.status === "done" || job.status === "failed") {
        console.log(
          `members ${job.status}: ${job.imported} subscribed, ${job.existing} already on the list, ` +
            `${job.notSubscribed} not subscribed to e-mails, ${job.duplicates} duplicate(s), ${job.invalid} invalid`,
        );
        return job.status === "done" ? 0 : 1;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await worker.stop();
  }
}

/** `import:ghost`: a Ghost JSON export (and its members CSV and images), as the Markdown import runs. */
export async function importGhostCommand(args: string[], ctx: ImportContext): Promise<number> {
  const opts = parseGhostOptions(args);
  if (!opts) {
    console.error(`usage: ${GHOST_USAGE}`);
    return 2;
  }
  const given = path.resolve(opts.file);
  let members: ImportFileRead | null = null;
  let root = path.dirname(given);
  let unpacked: string | null = null;
  const zipProblems: ImportReportLine[] = [];
  try {
    const info = await stat(given).catch(() => null);
    if (!info?.isFile()) throw new SourceRefused(`not a file: ${given}`);
    if (opts.members) {
      const m = await readMembers(path.resolve(opts.members), opts.lang ?? "en");
      if (typeof m === "string") throw new SourceRefused(m);
      members = m;
    }
    if (opts.images) {
      const images = path.resolve(opts.images);
      const info = await stat(images).catch(() => null);
      if (!info) throw new SourceRefused(`no such folder or zip: ${images}`);
      root = images;
      if (info.isFile()) {
        const zip = await unpackZip(images, path.join(ctx.dataDir, "imports"), { entryMaxBytes: ctx.uploadMaxBytes });
        unpacked = zip.dir;
        root = zip.root;
        zipProblems.push(...zip.problems);
      }
    }
  } catch (error) {
    if (error instanceof SourceRefused) {
      console.error(`import refused: ${error.message}`);
      return 2;
    }
    throw error;
  }
  // The export is streamed (decision 020, "At scale": Ghost): its summary is known once it is read.
  const membersSummary = members ? `; members: ${membersLine(members)}` : "";
  const feed: PostFeed = async (onPosts) => {
    const read = await streamGhostExport(given, { locale: opts.lang }, onPosts);
    const problems = [...zipProblems, ...read.problems];
    console.log(
      `read ${given}: ${read.posts} post(s) and page(s), ${read.pages} page(s), ${problems.length} problem(s)${membersSummary}`,
    );
    return problems;
  };
  const withMembers = members;
  try {
    return await runPostImport(ctx, {
      kind: GHOST_SOURCE,
      label: given,
      rootDir: root,
      feed,
      images: ghostImageResolver(root, ctx.uploadMaxBytes),
      dryRun: opts.dryRun,
      fetchRemote: opts.fetchRemote,
      author: opts.author,
      chunk: opts.chunk,
      matchLabel: true,
      unpacked,
      ...(withMembers && opts.members
        ? { after: (author) => importMembers(ctx, author, opts.members ?? "", withMembers, opts.lang ?? "en") }
        : {}),
    });
  } catch (error) {
    // Not JSON, not a Ghost export, too many posts: refused, and the import it began is dropped.
    if (error instanceof SourceRefused) {
      if (unpacked) await rm(unpacked, { recursive: true, force: true });
      console.error(`import refused: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

const WORDPRESS_USAGE =
  "import:wordpress <export.xml> [--images <dir|zip>] [--lang en|zh] [--fetch-remote] [--dry-run] [--author <email>]";

/**
 * `import:wordpress`: a WXR export (and its uploads folder or zip), as the Ghost import runs
 * (docs/decisions/022-wordpress-import.md). `--uploads` is another name for `--images`.
 */
export async function importWordpressCommand(args: string[], ctx: ImportContext): Promise<number> {
  const opts = parseGhostOptions(args.map((a) => (a === "--uploads" ? "--images" : a)));
  if (!opts || opts.members) {
    console.error(`usage: ${WORDPRESS_USAGE}`);
    return 2;
  }
  const given = path.resolve(opts.file);
  let root = path.dirname(given);
  let unpacked: string | null = null;
  const zipProblems: ImportReportLine[] = [];
  try {
    if (opts.images) {
      const images = path.resolve(opts.images);
      const info = await stat(images).catch(() => null);
      if (!info) throw new SourceRefused(`no such folder or zip: ${images}`);
      root = images;
      if (info.isFile()) {
        const zip = await unpackZip(images, path.join(ctx.dataDir, "imports"), { entryMaxBytes: ctx.uploadMaxBytes });
        unpacked = zip.dir;
        root = zip.root;
        zipProblems.push(...zip.problems);
      }
    }
  } catch (error) {
    if (error instanceof SourceRefused) {
      console.error(`import refused: ${error.message}`);
      return 2;
    }
    throw error;
  }
  // The export is streamed (decision 022, "At scale"): its summary is known once it is read.
  const feed: PostFeed = async (onPosts) => {
    const seen = { posts: 0, pages: 0, pairs: 0, comments: 0 };
    const read = await streamWxr(given, { locale: opts.lang }, async (posts) => {
      for (const p of posts) {
        seen.posts += 1;
        if (p.categories[0] === WORDPRESS_PAGES_CATEGORY) seen.pages += 1;
        if (p.translations.length > 1) seen.pairs += 1;
        seen.comments += p.comments?.length ?? 0;
      }
      await onPosts(posts);
    });
    const problems = [...zipProblems, ...read.problems];
    console.log(
      `read ${given}: ${seen.posts} post(s) and page(s), ${seen.pages} page(s), ${seen.pairs} in two languages, ` +
        `${seen.comments} comment(s), ${read.attachments} attachment(s), ${problems.length} problem(s)`,
    );
    return problems;
  };
  try {
    return await runPostImport(ctx, {
      kind: WORDPRESS_SOURCE,
      label: given,
      rootDir: root,
      feed,
      images: wordpressImageResolver(root, ctx.uploadMaxBytes),
      dryRun: opts.dryRun,
      fetchRemote: opts.fetchRemote,
      author: opts.author,
      chunk: opts.chunk,
      matchLabel: true,
      unpacked,
    });
  } catch (error) {
    if (error instanceof SourceRefused) {
      console.error(`import refused: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
