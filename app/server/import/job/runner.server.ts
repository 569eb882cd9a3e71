import { nowIso } from "../../db/db.server.ts";
import type { PostSearchTable } from "../../db/schema.server.ts";
import { IMPORTER, withPostLifecycle } from "../../posts/lifecycle.server.ts";
import { forgetPostCounts } from "../../posts/post-counts.server.ts";
import { replaceIndexRows } from "../../search/index.server.ts";
import { writePage } from "../write/pages.server.ts";
import { writePost } from "../write/posts.server.ts";
import { planPageRedirects, planRedirects } from "../write/redirect-plan.server.ts";
import {
  forgetKeptRules,
  type KeptRules,
  keepRules,
  openRedirectScope,
  takeKeptRules,
  writeRedirects,
} from "../write/redirects.server.ts";
import { type ChunkInProgress, type PreparedChunk, prepareChunk } from "./prepare.server.ts";
import { advanceImport, finishImport, ImportMoved, nextImport } from "./state.server.ts";
import type { ChunkLookups, ImportJob, PostImportDeps } from "./types.server.ts";

// One step of the import job (docs/decisions/020-importers.md, the subscriber import's pattern,
// decision 011): the next chunk of the oldest unfinished import, prepared outside any
// transaction (prepare.server.ts), then written in one transaction through the post lifecycle:
// posts, their tags and category, comments and authors, the source-id mappings, redirects,
// search rows, the cursor and the counts together, so a kill resumes at the last committed
// chunk and nothing is written twice. The next chunk is prepared while this one is written.

/** Posts per transaction: a chunk renders its bodies first, then holds the database only for the writes. */
export const POST_IMPORT_CHUNK = 50;

export type PostChunkOutcome = "idle" | "progress" | "done";

/**
 * The chunk after the one being written, prepared while it was written (importNextPostChunk), per
 * database. Used only by the next call for the same import at the same cursor; anything else
 * (another import first, a cursor moved by another run, another chunk size) prepares afresh.
 */
const aheadChunks = new WeakMap<
  PostImportDeps["db"],
  ChunkInProgress & { importId: string; fromSeq: number; size: number }
>();

/**
 * Does one step of the oldest unfinished import: writes its next chunk of posts in one
 * transaction with the cursor, or marks it done (with its audit entry) when no items are left.
 * Returns the ids of posts written in `written` so the caller can reindex and announce them, and
 * calls `wrotePages` when a chunk wrote pages (the caller drops cached pages then too).
 */
export async function importNextPostChunk(
  deps: PostImportDeps,
  opts: { now?: Date; chunk?: number; written?: string[]; wrotePages?: () => void } = {},
): Promise<PostChunkOutcome> {
  const { db } = deps;
  const job = await nextImport(db);
  if (!job) return "idle";
  const at = nowIso(opts.now);
  const processed = Number(job.processed);
  const size = opts.chunk ?? POST_IMPORT_CHUNK;
  const ahead = aheadChunks.get(db);
  aheadChunks.delete(db);
  const current =
    ahead && ahead.importId === job.id && ahead.fromSeq === processed && ahead.size === size
      ? ahead
      : prepareChunk(deps, job, processed, size);
  const chunk = await current.result;

  if (chunk.rows === 0) {
    forgetKeptRules(db);
    return (await finishImport(db, job, at)) ? "done" : "progress";
  }

  // The next chunk's reads, images and render requests go before this chunk's transaction (which
  // holds SQLite's one connection): the render worker works on them while this thread writes.
  const next = prepareChunk(deps, job, chunk.lastSeq + 1, size);
  aheadChunks.set(db, { importId: job.id, fromSeq: chunk.lastSeq + 1, size, ...next });
  await next.gathered;
  const written = await writeChunk(deps, job, chunk, at);
  if (written.posts.length > 0) forgetPostCounts(db);
  opts.written?.push(...written.posts);
  if (written.pages) opts.wrotePages?.();
  return "progress";
}

/** Writes a prepared chunk in one transaction; the ids of the posts written (none when another run moved the import first). */
async function writeChunk(
  deps: PostImportDeps,
  job: ImportJob,
  chunk: PreparedChunk,
  at: string,
): Promise<{ posts: string[]; pages: boolean }> {
  const { db } = deps;
  const { lastSeq, counts, lines, ready } = chunk;
  const written: string[] = [];
  let wrotePages = false;
  const cached = takeKeptRules(db, job.id);
  let kept = null as KeptRules | null;
  try {
    const actor = job.actorId ? { id: job.actorId, email: job.actorEmail } : IMPORTER;
    await withPostLifecycle(db, actor, async (life) => {
      const { trx } = life;
      const { scope, version } = await openRedirectScope(trx, cached, lines);
      const known: ChunkLookups = { authors: new Map(), handles: new Map() };
      const indexRows = new Map<string, PostSearchTable[]>();
      for (const p of ready) {
        if (p.post.kind === "page") {
          // A page goes to the pages table (decision 035): no lifecycle, search rows or comments.
          const page = await writePage(trx, job, p, at);
          lines.push(...p.lines);
          if (page.outcome === "skipped" || page.outcome === "failed") {
            counts[page.outcome] += 1;
            lines.push({ item: p.post.label, outcome: page.outcome, reason: page.reason });
            continue;
          }
          counts.pages += 1;
          wrotePages = true;
          lines.push({ item: p.post.label, outcome: page.outcome, detail: `/${page.slug}` });
          await planPageRedirects(scope, p.post, page.slug);
          continue;
        }
        const result = await writePost(life, job, p, at, known);
        lines.push(...p.lines);
        if (result.outcome === "skipped") {
          counts.skipped += 1;
          lines.push({ item: p.post.label, outcome: "skipped", reason: result.reason });
          continue;
        }
        counts[result.outcome] += 1;
        counts.commentsAdded += result.comments;
        lines.push({ item: p.post.label, outcome: result.outcome, detail: result.postId });
        written.push(result.postId);
        indexRows.set(
          result.postId,
          p.index.map((text) => ({ postId: result.postId, ...text, updatedAt: at })),
        );
        await planRedirects(trx, scope, job.kind, p.post, result.postId, known);
      }
      const nextVersion = await writeRedirects(trx, scope, version, job.kind, at, counts);
      // The written posts' search rows, segmented before the transaction, with the posts: one
      // transaction (and one commit) a chunk instead of two.
      await replaceIndexRows(trx, indexRows);
      await advanceImport(trx, job, { lastSeq, counts, lines, at });
      kept = { version: nextVersion, rules: scope.rules };
    });
  } catch (error) {
    if (error instanceof ImportMoved) return { posts: [], pages: false };
    throw error;
  }
  if (kept) keepRules(db, job.id, kept);
  return { posts: written, pages: wrotePages };
}
