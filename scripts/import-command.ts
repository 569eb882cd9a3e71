// `npm run cli -- import:markdown <dir> [--dry-run] [--author email] [--permalink pattern]`:
// reads a folder of Markdown posts, then imports it as a durable background job
// (docs/decisions/020-importers.md), printing progress and the final report.
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { pino } from "pino";
import type { DB } from "../app/server/db/db.server.ts";
import type { ImportCounts, ImportReportLine } from "../app/server/import/core.server.ts";
import { localImageResolver } from "../app/server/import/images.server.ts";
import {
  MARKDOWN_FILE_MAX_BYTES,
  MARKDOWN_SOURCE,
  readMarkdownFolder,
  SourceRefused,
} from "../app/server/import/markdown-folder.server.ts";
import { unpackZip } from "../app/server/import/zip.server.ts";
import { INSTANCE_ID } from "../app/server/jobs/lease.server.ts";
import { importDeps, startPostImports } from "../app/server/jobs/post-import.server.ts";
import {
  getPostImport,
  planPostImport,
  queuePostImport,
  unfinishedImportOf,
} from "../app/server/repos/post-import.server.ts";
import type { StorageDriver } from "../app/server/storage/types.server.ts";

const USAGE = "import:markdown <dir|zip> [--dry-run] [--author <email>] [--permalink <pattern>] [--chunk <n>]";

interface Options {
  dir: string;
  dryRun: boolean;
  author: string | null;
  permalink: string | undefined;
  chunk: number | undefined;
}

function parseOptions(args: string[]): Options | null {
  const out: Options = { dir: "", dryRun: false, author: null, permalink: undefined, chunk: undefined };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--dry-run") out.dryRun = true;
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
async function findAuthor(db: DB, email: string | null): Promise<{ id: string; email: string } | null> {
  let query = db.selectFrom("users").select(["users.id", "users.email"]);
  query = email
    ? query.where("users.email", "=", email.trim().toLowerCase())
    : query.innerJoin("admins", "admins.email", "users.email").orderBy("admins.createdAt").orderBy("users.email");
  return (await query.executeTakeFirst()) ?? null;
}

const REASONS: Record<string, string> = {
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
};

export function reportLine(line: ImportReportLine): string {
  const reason = line.reason ? (REASONS[line.reason] ?? line.reason) : "";
  const detail = line.detail ? ` (${line.detail})` : "";
  return `  ${line.outcome.padEnd(12)} ${line.item}${reason ? `: ${reason}` : ""}${detail}`;
}

export function countsLine(c: ImportCounts): string {
  return (
    `imported ${c.imported}, updated ${c.updated}, skipped ${c.skipped}, failed ${c.failed}; ` +
    `images stored ${c.imagesStored}, missing ${c.imagesMissing}; redirects added ${c.redirectsAdded}`
  );
}

export async function importMarkdownCommand(
  args: string[],
  ctx: { db: DB; storage: StorageDriver; uploadMaxBytes: number; dataDir: string; bump: () => Promise<void> },
): Promise<number> {
  const opts = parseOptions(args);
  if (!opts) {
    console.error(`usage: ${USAGE}`);
    return 2;
  }
  const { db } = ctx;
  const given = path.resolve(opts.dir);
  let root = given;
  // A zip is unpacked under DATA_DIR/imports (named by its content, so a rerun finds it) and removed when done.
  let unpacked: string | null = null;
  let read: Awaited<ReturnType<typeof readMarkdownFolder>>;
  try {
    const zipProblems: ImportReportLine[] = [];
    if ((await stat(given).catch(() => null))?.isFile()) {
      const zip = await unpackZip(given, path.join(ctx.dataDir, "imports"), {
        entryMaxBytes: Math.max(ctx.uploadMaxBytes, MARKDOWN_FILE_MAX_BYTES),
      });
      unpacked = zip.dir;
      root = zip.root;
      zipProblems.push(...zip.problems);
    }
    read = await readMarkdownFolder(root, { permalink: opts.permalink });
    read.problems.unshift(...zipProblems);
  } catch (error) {
    if (error instanceof SourceRefused) {
      console.error(`import refused: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const pairs = read.posts.filter((p) => p.translations.length > 1).length;
  console.log(
    `read ${read.files} Markdown file(s) in ${given}: ${read.posts.length} post(s), ${pairs} in two languages, ` +
      `${read.problems.length} problem(s)`,
  );
  const images = localImageResolver(root, ctx.uploadMaxBytes);
  if (opts.dryRun) {
    const plan = await planPostImport(db, { kind: MARKDOWN_SOURCE, read, images });
    for (const line of plan.report) console.log(reportLine(line));
    console.log(`dry run, nothing written; an import would have: ${countsLine(plan.counts)}`);
    // Kept while a killed import of the same zip still needs it.
    if (unpacked && !(await unfinishedImportOf(db, MARKDOWN_SOURCE, root)))
      await rm(unpacked, { recursive: true, force: true });
    return 0;
  }
  const author = await findAuthor(db, opts.author);
  if (!author) {
    console.error(
      opts.author
        ? `no account with the e-mail ${opts.author}`
        : "no admin account to own the posts yet: pass --author <email> of an existing account",
    );
    return 2;
  }
  let id = await unfinishedImportOf(db, MARKDOWN_SOURCE, root);
  if (id) {
    const job = await getPostImport(db, id);
    console.log(`resuming the unfinished import of this folder at ${job?.processed ?? 0}/${job?.total ?? 0}`);
  } else {
    id = await queuePostImport(db, {
      kind: MARKDOWN_SOURCE,
      label: given,
      rootDir: root,
      actor: author,
      authorId: author.id,
      read,
    });
  }
  const log = pino({ level: "silent" });
  const worker = startPostImports(importDeps(db, ctx.storage, ctx.uploadMaxBytes, log), log, {
    intervalMs: 1000,
    holder: `cli:${INSTANCE_ID}`,
    ...(opts.chunk ? { chunk: opts.chunk } : {}),
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
        return job.status === "done" ? 0 : 1;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await worker.stop();
    await ctx.bump();
  }
}
