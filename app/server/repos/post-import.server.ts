import type { Insertable, Transaction } from "kysely";
import type { Logger } from "pino";
import { handleBase } from "../../lib/author-profile.ts";
import { cleanDisplayName } from "../../lib/display-name.ts";
import { MarkdownTooDeep, withinNesting } from "../../lib/markdown-depth.ts";
import type { MediaImage } from "../../lib/media.ts";
import { checkTarget, fromKey, normalizeFrom, type RedirectKey } from "../../lib/redirects.ts";
import { COMMENT_MAX_LENGTH } from "../../lib/schemas/comment.ts";
import { type EditorInput, isCoverUrl, POST_LIMITS, SLUG_PATTERN } from "../../lib/schemas/post.ts";
import { slugify } from "../../lib/slug.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Database, Locale, PostImportStatus, PostSearchTable } from "../db/schema.server.ts";
import { newId } from "../ids.server.ts";
import { type CheckedPost, checkPost } from "../import/check.server.ts";
import {
  emptyCounts,
  type ImportCounts,
  type ImportedComment,
  type ImportedPost,
  type ImportReportLine,
  itemHash,
  REPORT_MAX_LINES,
} from "../import/core.server.ts";
import {
  type ImageResolver,
  imageReferences,
  rewriteReferences,
  storeImportedBytes,
  storeImportedImage,
} from "../import/images.server.ts";
import type { SourceRead } from "../import/markdown-folder.server.ts";
import { fetchRemoteImage, REMOTE_FETCH_DEFAULTS, type RemoteFetchOptions } from "../import/remote-fetch.server.ts";
import type { ImportRenderRequest } from "../import/render.server.ts";
import { type ImportRenderer, inProcessImportRenderer } from "../import/render-pool.server.ts";
import { markdownModule } from "../markdown-load.server.ts";
import { mediaImages } from "../media/media.server.ts";
import { forgetPostCounts } from "../post-counts.server.ts";
import { IMPORTER, type PostLife, withPostLifecycle } from "../posts/lifecycle.server.ts";
import { markTranslationsInLine } from "../posts/translation-sync.server.ts";
import { RuleSet } from "../redirects/rules.server.ts";
import { replaceIndexRows } from "../search/index.server.ts";
import { type IndexedText, indexedText } from "../search/indexed-text.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";
import { type Actor, audit } from "./audit.server.ts";
import { mappedTarget, rememberTarget, storedImageUrl } from "./import-sources.server.ts";
import {
  importRedirectsInto,
  loadRules,
  type RedirectCandidate,
  type RulesVersion,
  rulesVersion,
  sameRulesVersion,
} from "./redirects.server.ts";
import { contentOfInput, recordRevision } from "./revisions.server.ts";
import { ensureTags } from "./taxonomy.server.ts";

// Post imports (docs/decisions/020-importers.md), the subscriber import's pattern (decision 011):
// a read source is stored as a queued import with one item per post; a worker on the holder of
// the "post-import" lease writes a chunk of items per transaction (posts, their tags and
// category, the source-id mapping, redirects, the cursor and the counts together), so a kill
// resumes at the last committed chunk and nothing is written twice. Images are stored before
// the chunk's transaction, each once per content (images.server.ts).

/** Posts per transaction: a chunk renders its bodies first, then holds the database only for the writes. */
export const POST_IMPORT_CHUNK = 50;
/** Rows per multi-row insert or `in (…)` list of a chunk (12 values a row at most: far below both databases' limits). */
const ROWS_PER_STATEMENT = 100;

/** Runs `each` on consecutive slices of `items`, ROWS_PER_STATEMENT at most, one after another. */
async function inSlices<T>(items: readonly T[], each: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) await each(items.slice(i, i + ROWS_PER_STATEMENT));
}
/** Chunks failing in a row before an import is given up. */
export const POST_IMPORT_MAX_FAILURES = 5;

export interface PostImportJob extends ImportCounts {
  id: string;
  kind: string;
  status: PostImportStatus;
  label: string;
  processed: number;
  report: ImportReportLine[];
  createdAt: string;
  finishedAt: string | null;
  /** Whether the import's dry run was kept (staged on the admin page) and can be downloaded. */
  hasPlan: boolean;
}

/** An import's dry run or final report, as the admin page offers them for download. */
export interface PostImportReport {
  id: string;
  kind: string;
  label: string;
  status: PostImportStatus;
  createdAt: string;
  finishedAt: string | null;
  counts: ImportCounts;
  report: ImportReportLine[];
}

export interface PostImportDeps {
  db: DB;
  storage: StorageDriver;
  log?: Logger;
  /** How each kind of import finds its images, given the import's root folder. */
  images: (kind: string, rootDir: string) => ImageResolver;
  /** Fetching remote images for imports that ask for it (the size limit is the upload limit). */
  remote: Omit<RemoteFetchOptions, "maxBytes"> & { maxBytes: number };
  /** Renders the posts' bodies: the server and the CLI pass a worker; absent, on this thread. */
  renderer?: ImportRenderer;
}

/** The remote fetch for an import's deps: time-out, redirects and SSRF rules as decided (decision 020). */
export const remoteFetchOptions = (maxBytes: number): PostImportDeps["remote"] => ({
  ...REMOTE_FETCH_DEFAULTS,
  maxBytes,
});

const parseReport = (raw: string): ImportReportLine[] => {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? (v as ImportReportLine[]) : [];
  } catch {
    return [];
  }
};

/** Items per transaction while a source is read: memory holds one batch, not the whole source. */
export const POST_IMPORT_QUEUE_BATCH = 200;

export interface PostImportSource {
  kind: string;
  label: string;
  rootDir: string;
  actor: Actor;
  authorId: string;
  /** Fetch remote images into the media library (`--fetch-remote`); otherwise they stay links, listed. */
  fetchRemote?: boolean;
}

/**
 * Starts an import whose source is still being read (status `reading`: no worker takes it).
 * The reader appends its posts in batches (appendPostImportItems) and then calls
 * finishPostImportRead. A process killed while reading leaves a `reading` import that nothing
 * runs: the next run of the same source drops it (dropReadingImports) and reads again
 * (docs/decisions/020-importers.md, "At scale").
 */
export async function beginPostImport(db: DB, input: PostImportSource, now = new Date()): Promise<string> {
  const id = newId();
  const at = nowIso(now);
  await db
    .insertInto("postImports")
    .values({
      id,
      kind: input.kind,
      status: "reading",
      label: input.label.slice(0, 500),
      rootDir: input.rootDir,
      actorId: input.actor.id,
      actorEmail: input.actor.email,
      authorId: input.authorId,
      fetchRemote: input.fetchRemote ? 1 : 0,
      total: 0,
      failed: 0,
      report: "[]",
      createdAt: at,
      updatedAt: at,
      finishedAt: null,
    })
    .execute();
  return id;
}

/**
 * Appends read posts (numbered after those already appended) and report lines of reading to an
 * import still `reading`, in one transaction. False when it is not reading any more.
 */
export async function appendPostImportItems(
  db: DB,
  id: string,
  posts: readonly ImportedPost[],
  problems: readonly ImportReportLine[] = [],
): Promise<boolean> {
  return appendPostImportPayloads(
    db,
    id,
    posts.map((p) => JSON.stringify(p)),
    problems,
  );
}

/** appendPostImportItems for posts already serialised (as the upload check's worker sends them). */
export async function appendPostImportPayloads(
  db: DB,
  id: string,
  payloads: readonly string[],
  problems: readonly ImportReportLine[] = [],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const job = await trx
      .selectFrom("postImports")
      .select(["total", "report"])
      .where("id", "=", id)
      .where("status", "=", "reading")
      .executeTakeFirst();
    if (!job) return false;
    const first = Number(job.total);
    for (let i = 0; i < payloads.length; i += 100) {
      await trx
        .insertInto("postImportItems")
        .values(payloads.slice(i, i + 100).map((payload, j) => ({ importId: id, seq: first + i + j, payload })))
        .execute();
    }
    const report = parseReport(job.report);
    const room = REPORT_MAX_LINES - report.length;
    await trx
      .updateTable("postImports")
      .set((eb) => ({
        total: first + payloads.length,
        failed: eb("failed", "+", problems.filter((p) => p.outcome === "failed").length),
        ...(problems.length > 0 && room > 0 ? { report: JSON.stringify([...report, ...problems.slice(0, room)]) } : {}),
        updatedAt: nowIso(),
      }))
      .where("id", "=", id)
      .execute();
    return true;
  });
}

/** The source is read: the import is queued (or staged, for the admin page's dry run first). */
export async function finishPostImportRead(db: DB, id: string, opts: { staged?: boolean } = {}): Promise<boolean> {
  const result = await db
    .updateTable("postImports")
    .set({ status: opts.staged ? "staged" : "queued", updatedAt: nowIso() })
    .where("id", "=", id)
    .where("status", "=", "reading")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Drops imports of this source left `reading` by a killed run (their items too); with `label`, only
 * those of that label (an export file: two exports may share a folder). Returns how many.
 */
export async function dropReadingImports(db: DB, kind: string, rootDir: string, label?: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("postImports")
      .select("id")
      .where("kind", "=", kind)
      .where("rootDir", "=", rootDir)
      .where("status", "=", "reading")
      .$if(label !== undefined, (qb) => qb.where("label", "=", (label ?? "").slice(0, 500)))
      .execute();
    for (const { id } of rows) {
      await trx.deleteFrom("postImportItems").where("importId", "=", id).execute();
      await trx.deleteFrom("postImports").where("id", "=", id).execute();
    }
    return rows.length;
  });
}

/**
 * Stores a read source as a queued import: the report lines of reading, and one item per post,
 * appended in batches. Returns its id. (Readers that stream append their batches themselves.)
 */
export async function queuePostImport(
  db: DB,
  input: PostImportSource & {
    read: SourceRead;
    /** Stored but not started until confirmed (the admin page's dry run first). */
    staged?: boolean;
  },
  now = new Date(),
): Promise<string> {
  const id = await beginPostImport(db, input, now);
  const { read } = input;
  await appendPostImportItems(db, id, [], read.problems);
  for (let i = 0; i < read.posts.length; i += POST_IMPORT_QUEUE_BATCH)
    await appendPostImportItems(db, id, read.posts.slice(i, i + POST_IMPORT_QUEUE_BATCH));
  await finishPostImportRead(db, id, { staged: input.staged === true });
  return id;
}

/** An unfinished import of the same kind and folder (a run that was killed): the CLI resumes it. */
export async function unfinishedImportOf(db: DB, kind: string, rootDir: string): Promise<string | null> {
  const row = await db
    .selectFrom("postImports")
    .select("id")
    .where("kind", "=", kind)
    .where("rootDir", "=", rootDir)
    .where("status", "in", ["queued", "running"])
    .orderBy("createdAt")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function getPostImport(db: DB, id: string): Promise<PostImportJob | null> {
  const r = await db.selectFrom("postImports").selectAll().where("id", "=", id).executeTakeFirst();
  if (!r) return null;
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    label: r.label,
    total: Number(r.total),
    processed: Number(r.processed),
    imported: Number(r.imported),
    updated: Number(r.updated),
    skipped: Number(r.skipped),
    failed: Number(r.failed),
    imagesStored: Number(r.imagesStored),
    imagesMissing: Number(r.imagesMissing),
    redirectsAdded: Number(r.redirectsAdded),
    commentsAdded: Number(r.commentsAdded),
    report: parseReport(r.report),
    hasPlan: r.plan !== null,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}

async function nextImport(db: DB) {
  return db
    .selectFrom("postImports")
    .selectAll()
    .where("status", "in", ["queued", "running"])
    .orderBy("createdAt")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
}

type Job = NonNullable<Awaited<ReturnType<typeof nextImport>>>;

async function mappingOf(db: DB, source: string, sourceId: string) {
  return db
    .selectFrom("importSources")
    .select(["targetId", "hash", "targetVersion"])
    .where("source", "=", source)
    .where("entity", "=", "post")
    .where("sourceId", "=", sourceId)
    .executeTakeFirst();
}

/** What a re-run would do with each item before any work: skip it when the source and the post are as last written (two queries per hundred items). */
async function earlySkips(
  db: DB,
  source: string,
  items: ReadonlyArray<{ post: Pick<ImportedPost, "sourceId">; hash: string }>,
): Promise<Array<string | null>> {
  const ids = [...new Set(items.map((i) => i.post.sourceId))];
  const mapped = new Map<string, { targetId: string; hash: string; targetVersion: number }>();
  await inSlices(ids, async (slice) => {
    const rows = await db
      .selectFrom("importSources")
      .select(["sourceId", "targetId", "hash", "targetVersion"])
      .where("source", "=", source)
      .where("entity", "=", "post")
      .where("sourceId", "in", slice)
      .execute();
    for (const r of rows) mapped.set(r.sourceId, r);
  });
  const targets = [...new Set([...mapped.values()].map((m) => m.targetId))];
  const posts = new Map<string, { version: number; deletedAt: string | null }>();
  await inSlices(targets, async (slice) => {
    const rows = await db.selectFrom("posts").select(["id", "version", "deletedAt"]).where("id", "in", slice).execute();
    for (const r of rows) posts.set(r.id, r);
  });
  return items.map(({ post, hash }) => {
    const m = mapped.get(post.sourceId);
    const existing = m ? posts.get(m.targetId) : undefined;
    if (!m || !existing) return null;
    if (existing.deletedAt) return "inTrash";
    if (m.hash === hash) return "unchanged";
    if (Number(existing.version) !== Number(m.targetVersion)) return "editedSinceImport";
    return null;
  });
}

interface Prepared {
  post: ImportedPost;
  hash: string;
  translations: Array<{
    locale: Locale;
    title: string;
    summary: string;
    bodyMarkdown: string;
    bodyHtml: string;
    tocJson: string;
    readingMinutes: number;
  }>;
  /** Each translation's search index text (segmented before the chunk's transaction). */
  index: IndexedText[];
  coverUrl: string | null;
  /** The post's comments, rendered (the comment form's path). */
  comments: Array<ImportedComment & { bodyHtml: string }>;
  lines: ImportReportLine[];
  imagesStored: number;
  imagesMissing: number;
}

type Preparation = { ok: true; prepared: Prepared } | { ok: false; line: ImportReportLine; lines: ImportReportLine[] };

/** A post whose images are stored and whose render was asked for: `result` settles when the renderer is done. */
interface Gathered {
  result: Promise<Preparation>;
}

/** Media ids a body may show (a superset: every `/media/{id}/` in its text), looked up in batches. */
async function bodyMedia(db: DB, bodies: readonly string[]): Promise<Map<string, MediaImage>> {
  const ids = new Set<string>();
  for (const body of bodies) for (const m of body.matchAll(MEDIA_IN_TEXT)) if (m[1]) ids.add(m[1]);
  const all = [...ids];
  const found = new Map<string, MediaImage>();
  for (let i = 0; i < all.length; i += MEDIA_LOOKUP_BATCH)
    for (const [id, image] of await mediaImages(db, all.slice(i, i + MEDIA_LOOKUP_BATCH))) found.set(id, image);
  return found;
}
const MEDIA_IN_TEXT = /\/media\/([0-9a-z]{20})\//g;
const MEDIA_LOOKUP_BATCH = 500;

/**
 * Images stored (outside any transaction) and the post handed to the renderer (the editor's render
 * path, on the import's render worker where there is one). Resolves once this thread's part is
 * done, so the caller can go on with the next post, or write a chunk, while the post renders.
 */
async function prepare(deps: PostImportDeps, job: Job, post: ImportedPost, hash: string): Promise<Gathered> {
  const lines: ImportReportLine[] = [...post.notes];
  const resolver = deps.images(job.kind, job.rootDir);
  const store = { db: deps.db, storage: deps.storage, source: job.kind, uploadedBy: job.authorId };
  let imagesStored = 0;
  let imagesMissing = 0;
  const cache = new Map<string, string | null>();
  /** A remote image fetched once per address across runs (entity `media-url`), then stored once per content. */
  const remoteImage = async (
    ref: string,
  ): Promise<{ ok: true; url: string; stored: boolean } | { ok: false; reason: string }> => {
    const key = ref.slice(0, 2000);
    const known = await storedImageUrl(deps.db, job.kind, "media-url", key);
    if (known) return { ok: true, url: known, stored: false };
    const got = await fetchRemoteImage(ref, deps.remote);
    if (!got.ok) return { ok: false, reason: got.reason };
    const name = decodeURIComponent(new URL(got.url).pathname.split("/").pop() || "image").slice(0, 100) || "image";
    const stored = await storeImportedBytes(store, got.data, name);
    if (!stored.ok) return stored;
    const mediaId = /^\/media\/([^/]+)\//.exec(stored.url)?.[1];
    if (mediaId)
      await rememberTarget(deps.db, {
        source: job.kind,
        entity: "media-url",
        sourceId: key,
        targetId: mediaId,
        now: nowIso(),
      });
    return stored;
  };
  const imageUrl = async (ref: string, item: string): Promise<string | null> => {
    if (cache.has(ref)) return cache.get(ref) ?? null;
    const found = await resolver.resolve(ref, post.assetDirs);
    let url: string | null = null;
    if (found.kind === "file") {
      const stored = await storeImportedImage(store, found.file);
      if (stored.ok) {
        url = stored.url;
        if (stored.stored) imagesStored += 1;
      } else {
        imagesMissing += 1;
        lines.push({ item, outcome: "imageMissing", reason: stored.reason, detail: found.rel });
      }
    } else if (found.kind === "missing") {
      imagesMissing += 1;
      lines.push({ item, outcome: "imageMissing", reason: found.reason, detail: found.rel });
    } else if (/^https?:\/\//i.test(ref)) {
      if (Number(job.fetchRemote) === 1) {
        const fetched = await remoteImage(ref);
        if (fetched.ok) {
          url = fetched.url;
          if (fetched.stored) imagesStored += 1;
        } else {
          imagesMissing += 1;
          lines.push({ item, outcome: "imageMissing", reason: fetched.reason, detail: ref.slice(0, 300) });
        }
      } else lines.push({ item, outcome: "note", reason: "imageRemoteKept", detail: ref.slice(0, 300) });
    }
    cache.set(ref, url);
    return url;
  };
  const fail = (reason: string, item: string, detail?: string): Preparation => ({
    ok: false,
    line: { item, outcome: "failed", reason, ...(detail ? { detail } : {}) },
    lines,
  });
  const settled = (preparation: Preparation): Gathered => ({ result: Promise.resolve(preparation) });
  if (post.translations.length === 0) return settled(fail("noContent", post.label));
  const bodies: ImportRenderRequest["bodies"] = [];
  for (const t of post.translations) {
    if (t.bodyMarkdown.length > POST_LIMITS.bodyMax)
      return settled(fail("bodyTooLong", t.origin, `${t.bodyMarkdown.length} characters`));
    // Never hand a too deeply nested body to the parser (its recursion would overflow).
    if (!withinNesting(t.bodyMarkdown)) return settled(fail("bodyTooDeep", t.origin));
    const refs = await imageReferences(t.bodyMarkdown);
    const urls = new Map<string, string | null>();
    for (const r of refs) if (!urls.has(r.url)) urls.set(r.url, await imageUrl(r.url, t.origin));
    const markdown = rewriteReferences(t.bodyMarkdown, refs, (u) => urls.get(u) ?? null);
    bodies.push({ locale: t.locale, markdown });
  }
  let coverUrl: string | null = null;
  if (post.cover) {
    const stored = await imageUrl(post.cover, post.label);
    if (stored) coverUrl = stored;
    else if (/^https?:\/\//i.test(post.cover) && isCoverUrl(post.cover) && post.cover.length <= POST_LIMITS.coverUrlMax)
      coverUrl = post.cover;
  }
  const comments = post.comments?.length ? commentBodies(post, lines) : [];
  const media = await bodyMedia(
    deps.db,
    bodies.map((b) => b.markdown),
  );
  const renderer = deps.renderer ?? inProcessImportRenderer;
  const result = renderer.render({ bodies, media }).then(async (out): Promise<Preparation> => {
    const translations: Prepared["translations"] = [];
    for (const [i, t] of post.translations.entries()) {
      const rendered = out[i];
      const body = bodies[i];
      if (!rendered || !body) return fail("bodyTooDeep", t.origin);
      translations.push({
        locale: t.locale,
        title: t.title,
        summary: t.summary,
        bodyMarkdown: body.markdown,
        bodyHtml: rendered.html,
        tocJson: JSON.stringify(rendered.toc),
        readingMinutes: rendered.readingMinutes,
      });
    }
    const index = translations.map((t) => indexedText(t));
    const rendered = comments.length > 0 ? renderComments(post, comments, lines, await markdownModule()) : [];
    return {
      ok: true,
      prepared: { post, hash, translations, index, coverUrl, comments: rendered, lines, imagesStored, imagesMissing },
    };
  });
  return { result };
}

/** What the report calls an imported comment. */
const commentItem = (post: ImportedPost, c: ImportedComment) => `${post.label} comment ${c.sourceId}`;

/**
 * The comments to render as the comment form would take them: a body over the form's limit is
 * cut, one nested too deeply is left out; both with a report line. Rendered on this thread
 * (renderComments) once the bodies are back from the renderer.
 */
function commentBodies(post: ImportedPost, lines: ImportReportLine[]): ImportedComment[] {
  const out: ImportedComment[] = [];
  for (const c of post.comments ?? []) {
    const item = commentItem(post, c);
    let body = c.bodyMarkdown.trim();
    if (!body) continue;
    if (body.length > COMMENT_MAX_LENGTH) {
      body = body.slice(0, COMMENT_MAX_LENGTH).trimEnd();
      lines.push({ item, outcome: "note", reason: "commentCut", detail: `cut to ${COMMENT_MAX_LENGTH} characters` });
    }
    if (!withinNesting(body)) {
      lines.push({ item, outcome: "note", reason: "commentTooDeep" });
      continue;
    }
    out.push({ ...c, bodyMarkdown: body });
  }
  return out;
}

/** Comments rendered as the comment form does (sanitised Markdown); one the parser finds too deep is left out. */
function renderComments(
  post: ImportedPost,
  comments: readonly ImportedComment[],
  lines: ImportReportLine[],
  markdown: { renderCommentParts(markdown: string): { html: string } },
): Prepared["comments"] {
  const out: Prepared["comments"] = [];
  for (const c of comments) {
    try {
      out.push({ ...c, bodyHtml: markdown.renderCommentParts(c.bodyMarkdown).html });
    } catch (error) {
      if (!(error instanceof MarkdownTooDeep)) throw error;
      lines.push({ item: commentItem(post, c), outcome: "note", reason: "commentTooDeep" });
    }
  }
  return out;
}

/**
 * Writes a post's imported comments that are not written yet (mapped as entity `comment`), in
 * the chunk's transaction. A comment deleted here since is not brought back while its post
 * lives (moderation here wins); a reply whose parent is missing becomes a top-level comment.
 */
async function writeComments(
  trx: Transaction<Database>,
  job: Job,
  p: Prepared,
  postId: string,
  postIsNew: boolean,
  now: string,
): Promise<number> {
  const ours = new Map<string, string>();
  // A new post has no comments yet: every comment of it is written, mapped before or not (its
  // old mapping points at a comment of a post that is gone), so nothing needs looking up.
  const mappedTo = new Map<string, string>();
  const live = new Set<string>();
  if (!postIsNew && p.comments.length > 0) {
    await inSlices(p.comments, async (slice) => {
      const rows = await trx
        .selectFrom("importSources")
        .select(["sourceId", "targetId"])
        .where("source", "=", job.kind)
        .where("entity", "=", "comment")
        .where(
          "sourceId",
          "in",
          slice.map((c) => c.sourceId),
        )
        .execute();
      for (const r of rows) mappedTo.set(r.sourceId, r.targetId);
    });
    const targets = [...new Set(mappedTo.values())];
    await inSlices(targets, async (slice) => {
      const rows = await trx
        .selectFrom("comments")
        .select("id")
        .where("id", "in", slice)
        .where("postId", "=", postId)
        .execute();
      for (const r of rows) live.add(r.id);
    });
  }
  const comments: Insertable<Database["comments"]>[] = [];
  const mappings: Insertable<Database["importSources"]>[] = [];
  for (const c of p.comments) {
    // A source id twice in one post: the first one stands (as when each was looked up in turn).
    if (ours.has(c.sourceId)) continue;
    const mapped = mappedTo.get(c.sourceId);
    if (mapped !== undefined) {
      if (live.has(mapped)) {
        ours.set(c.sourceId, mapped);
        continue;
      }
      // Deleted here since: moderation here wins while the post lives.
      if (!postIsNew) continue;
    }
    const parentId = c.parentSourceId ? (ours.get(c.parentSourceId) ?? null) : null;
    const id = newId();
    comments.push({
      id,
      postId,
      authorId: null,
      parentId,
      bodyMarkdown: c.bodyMarkdown,
      bodyHtml: c.bodyHtml,
      status: c.status,
      guestName: c.authorName.slice(0, 100) || null,
      guestEmail: c.authorEmail?.slice(0, 254) ?? null,
      guestUrl: c.authorUrl?.slice(0, 500) ?? null,
      createdAt: c.createdAt,
      updatedAt: now,
    });
    mappings.push({
      source: job.kind,
      entity: "comment",
      sourceId: c.sourceId,
      targetId: id,
      hash: "",
      targetVersion: 1,
      updatedAt: now,
      createdAt: now,
    });
    ours.set(c.sourceId, id);
  }
  // Parents come before their replies in the list, so a batch never refers to a later one.
  await inSlices(comments, (slice) => trx.insertInto("comments").values(slice).execute());
  await inSlices(mappings, (slice) =>
    trx
      .insertInto("importSources")
      .values(slice)
      .onConflict((oc) =>
        oc.columns(["source", "entity", "sourceId"]).doUpdateSet((eb) => ({
          targetId: eb.ref("excluded.targetId"),
          hash: "",
          targetVersion: 1,
          updatedAt: now,
        })),
      )
      .execute(),
  );
  return comments.length;
}

/**
 * Writes a post's imported revisions not written yet (entity `revision`) as saved revisions dated
 * when they were made: the post as imported with that language's title, summary and body as
 * they were then.
 */
async function writeRevisions(
  trx: Transaction<Database>,
  job: Job,
  p: Prepared,
  postId: string,
  input: EditorInput,
  slug: string,
  publishedAt: string | null,
  now: string,
): Promise<void> {
  if (!job.authorId) return;
  for (const r of p.post.revisions ?? []) {
    if (await mappedTarget(trx, job.kind, "revision", r.sourceId)) continue;
    const translations = input.translations.some((t) => t.locale === r.locale)
      ? input.translations.map((t) =>
          t.locale === r.locale ? { ...t, title: r.title, summary: r.summary, bodyMarkdown: r.bodyMarkdown } : t,
        )
      : input.translations;
    const revisionId = await recordRevision(trx, {
      postId,
      authorId: job.authorId,
      kind: "saved",
      content: contentOfInput({ ...input, slug, translations }, slug, publishedAt),
      now: r.createdAt,
      coalesce: false,
    });
    await rememberTarget(trx, {
      source: job.kind,
      entity: "revision",
      sourceId: r.sourceId,
      targetId: revisionId,
      targetVersion: 1,
      now,
    });
  }
}

async function ensureCategory(trx: Transaction<Database>, name: string): Promise<string> {
  const lower = name.toLowerCase();
  const slug = slugify(name) || `c-${newId().slice(0, 8)}`;
  const find = () =>
    trx
      .selectFrom("categories")
      .select("id")
      .where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["nameEn"]), "=", lower),
          eb(eb.fn("lower", ["nameZh"]), "=", lower),
          eb("slug", "=", slug),
        ]),
      )
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  const now = nowIso();
  const id = newId();
  await trx
    .insertInto("categories")
    .values({ id, slug, nameEn: name, nameZh: name, createdAt: now, updatedAt: now })
    .execute();
  return id;
}

/** A free slug for a new post: the source's (or one from its file or title), `-2`… when taken. */
async function freeSlug(trx: Transaction<Database>, post: ImportedPost): Promise<string> {
  const fromSource = post.slug ? slugify(post.slug) : "";
  const en = post.translations.find((t) => t.locale === "en")?.title ?? "";
  const fromName = slugify(
    post.sourceId
      .split("/")
      .pop()
      ?.replace(/^file:/, "") ?? "",
  );
  const base =
    [fromSource, slugify(en), fromName]
      .map((s) => s.slice(0, POST_LIMITS.slugMax - 8).replace(/-+$/, ""))
      .find((s) => s && SLUG_PATTERN.test(s)) ?? `post-${newId().slice(0, 8)}`;
  for (const slug of [base, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`)]) {
    const owner = await trx.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
    if (!owner) return slug;
  }
  return `${base}-${newId().slice(0, 6)}`;
}

/** Where an imported author's account is made: an address no mail reaches and nobody can claim. */
const AUTHOR_EMAIL_DOMAIN = "authors.invalid";

/** The first handle free for a name (the account page's rule: the name's base, then -2, -3…). */
async function freeHandle(trx: Transaction<Database>, name: string, id: string): Promise<string | null> {
  const base = handleBase(name, id);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken = await trx.selectFrom("users").select("id").where("handle", "=", candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
  return null;
}

/**
 * The account an imported post's author maps to (decision 020, "Ghost authors"): the one this
 * source's author was mapped to before; else an existing account whose verified e-mail is the
 * author's; else a new author account without login (no password, an `.invalid` address, so it
 * cannot sign in, be claimed or get mail), named by the display-name rules. Its handle is made as
 * for any account. Null (no author in the source, or the mapped account is gone and none can be
 * made): the importing account.
 */
async function importedAuthorId(
  trx: Transaction<Database>,
  job: Job,
  post: ImportedPost,
  lines: ImportReportLine[],
  now: string,
  known: ChunkLookups,
): Promise<string | null> {
  const author = post.author;
  if (!author) return null;
  // Once mapped in this chunk, the next posts would find the same mapping and account.
  const cached = known.authors.get(author.sourceId);
  if (cached !== undefined) return cached;
  const userId = await findOrMakeAuthor(trx, job, post, author, lines, now);
  known.authors.set(author.sourceId, userId);
  return userId;
}

async function findOrMakeAuthor(
  trx: Transaction<Database>,
  job: Job,
  post: ImportedPost,
  author: NonNullable<ImportedPost["author"]>,
  lines: ImportReportLine[],
  now: string,
): Promise<string> {
  const mapped = await mappedTarget(trx, job.kind, "author", author.sourceId);
  if (mapped) {
    const user = await trx.selectFrom("users").select("id").where("id", "=", mapped).executeTakeFirst();
    if (user) return user.id;
  }
  let userId: string | null = null;
  if (author.email) {
    const match = await trx
      .selectFrom("users")
      .select(["id", "name", "handle"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", author.email))
      .where("emailVerified", "=", 1)
      .where("banned", "=", 0)
      .executeTakeFirst();
    if (match) {
      userId = match.id;
      if (!match.handle) {
        const handle = await freeHandle(trx, match.name, match.id);
        await trx.updateTable("users").set({ handle }).where("id", "=", match.id).where("handle", "is", null).execute();
      }
      lines.push({ item: post.label, outcome: "note", reason: "authorMatched", detail: author.name || undefined });
    }
  }
  if (!userId) {
    userId = newId();
    const name = cleanDisplayName(author.name) || `author-${userId.slice(-6).toLowerCase()}`;
    const handle = await freeHandle(trx, name, userId);
    await trx
      .insertInto("users")
      .values({
        id: userId,
        name,
        email: `import-${userId.toLowerCase()}@${AUTHOR_EMAIL_DOMAIN}`,
        emailVerified: 0,
        image: null,
        handle,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    lines.push({ item: post.label, outcome: "note", reason: "authorCreated", detail: name });
  }
  await rememberTarget(trx, { source: job.kind, entity: "author", sourceId: author.sourceId, targetId: userId, now });
  return userId;
}

/**
 * What a chunk looked up once and may reuse for its next posts, inside its one transaction
 * (nothing else writes these rows meanwhile; the next chunk starts afresh): the account each
 * source author maps to, and that account's handle for the author page's redirects.
 */
interface ChunkLookups {
  authors: Map<string, string>;
  handles: Map<string, string | null>;
}

type Written =
  | { outcome: "imported" | "updated"; postId: string; comments: number }
  | { outcome: "skipped"; reason: string };

/** Writes one prepared post inside the chunk's transaction: created, updated, or skipped with a reason. */
async function writePost(life: PostLife, job: Job, p: Prepared, now: string, known: ChunkLookups): Promise<Written> {
  const { trx } = life;
  const { post } = p;
  const tagNames = post.tags.map((t) => t.slice(0, POST_LIMITS.tagMax).trim()).filter(Boolean);
  const [firstCategory, ...otherCategories] = post.categories;
  // One category per post: the first; the others become tags.
  const allTags = [...tagNames, ...otherCategories.map((c) => c.slice(0, POST_LIMITS.tagMax))].slice(
    0,
    POST_LIMITS.tagsMax,
  );
  if (tagNames.length + otherCategories.length > POST_LIMITS.tagsMax)
    p.lines.push({ item: post.label, outcome: "note", reason: "tagsCut", detail: `kept ${POST_LIMITS.tagsMax}` });
  const mapped = await mappingOf(trx, job.kind, post.sourceId);
  const existing = mapped
    ? await trx
        .selectFrom("posts")
        .select(["id", "slug", "version", "deletedAt", "publishedAt"])
        .where("id", "=", mapped.targetId)
        .executeTakeFirst()
    : undefined;
  if (mapped && existing) {
    if (existing.deletedAt) return { outcome: "skipped", reason: "inTrash" };
    if (mapped.hash === p.hash) return { outcome: "skipped", reason: "unchanged" };
    if (Number(existing.version) !== Number(mapped.targetVersion))
      return { outcome: "skipped", reason: "editedSinceImport" };
  }
  const authorId = (await importedAuthorId(trx, job, post, p.lines, now, known)) ?? job.authorId;
  const categoryId = firstCategory ? await ensureCategory(trx, firstCategory.slice(0, 100)) : null;
  const tagIds = await ensureTags(trx, allTags);
  const status = post.status;
  const input: EditorInput = {
    slug: "",
    categoryId,
    tags: allTags,
    coverImageUrl: p.coverUrl,
    coverAlt: post.coverAlt.slice(0, POST_LIMITS.coverAltMax),
    status,
    publishAt: post.publishedAt,
    newsletter: false,
    translations: p.translations.map((t) => ({
      locale: t.locale,
      title: t.title,
      summary: t.summary,
      bodyMarkdown: t.bodyMarkdown,
      seoTitle: null,
      seoDescription: null,
    })),
  };
  if (mapped && existing) {
    const version = Number(mapped.targetVersion);
    const publishedAt = post.publishedAt ?? existing.publishedAt ?? (status === "published" ? now : null);
    const result = await trx
      .updateTable("posts")
      .set((eb) => ({
        publishedAt,
        categoryId,
        ...(post.author && authorId ? { authorId } : {}),
        coverImageUrl: p.coverUrl,
        coverAlt: input.coverAlt,
        updatedAt: now,
        version: eb("version", "+", 1),
      }))
      .where("id", "=", existing.id)
      .where("version", "=", version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return { outcome: "skipped", reason: "editedSinceImport" };
    // The chunk writes the search rows itself, with the posts.
    await life.setStatus(existing.id, status, { event: "import", indexed: true, details: { source: job.kind } });
    const locales = p.translations.map((t) => t.locale);
    await trx
      .deleteFrom("postTranslations")
      .where("postId", "=", existing.id)
      .where("locale", "not in", locales)
      .execute();
    for (const t of p.translations) {
      const values = { ...t, seoTitle: null, seoDescription: null, updatedAt: now };
      const { locale: _l, ...rest } = values;
      await trx
        .insertInto("postTranslations")
        .values({ postId: existing.id, ...values, createdAt: now })
        .onConflict((oc) => oc.columns(["postId", "locale"]).doUpdateSet(rest))
        .execute();
    }
    await markTranslationsInLine(trx, existing.id);
    await trx.deleteFrom("postTags").where("postId", "=", existing.id).execute();
    if (tagIds.length > 0)
      await trx
        .insertInto("postTags")
        .values(tagIds.map((tagId) => ({ postId: existing.id, tagId })))
        .execute();
    await writeRevisions(trx, job, p, existing.id, input, existing.slug, publishedAt, now);
    if (authorId)
      await recordRevision(trx, {
        postId: existing.id,
        authorId,
        kind: "saved",
        content: contentOfInput({ ...input, slug: existing.slug }, existing.slug, publishedAt),
        now,
        coalesce: false,
      });
    const comments = await writeComments(trx, job, p, existing.id, false, now);
    await trx
      .updateTable("importSources")
      .set({ hash: p.hash, targetVersion: version + 1, updatedAt: now })
      .where("source", "=", job.kind)
      .where("entity", "=", "post")
      .where("sourceId", "=", post.sourceId)
      .execute();
    return { outcome: "updated", postId: existing.id, comments };
  }
  const slug = await freeSlug(trx, post);
  const publishedAt = post.publishedAt ?? (status === "published" ? now : null);
  const id = await life.create(
    {
      slug,
      authorId,
      status,
      publishedAt,
      categoryId,
      tagIds,
      coverImageUrl: p.coverUrl,
      coverAlt: input.coverAlt,
      newsletter: false,
      // Imported posts were published elsewhere before: never sent to Fediverse followers.
      federate: false,
      translations: p.translations,
    },
    { event: "import", indexed: true, details: { source: job.kind } },
  );
  await writeRevisions(trx, job, p, id, input, slug, publishedAt, now);
  if (authorId)
    await recordRevision(trx, {
      postId: id,
      authorId,
      kind: "saved",
      content: contentOfInput({ ...input, slug }, slug, publishedAt),
      now,
      // A new post: its only revisions are the imported ones just written, if any.
      fresh: (p.post.revisions ?? []).length === 0,
    });
  const comments = await writeComments(trx, job, p, id, true, now);
  await rememberTarget(trx, {
    source: job.kind,
    entity: "post",
    sourceId: post.sourceId,
    targetId: id,
    hash: p.hash,
    targetVersion: 1,
    now,
  });
  return { outcome: "imported", postId: id, comments };
}

/** What the redirects of one chunk share: the stored rules, the addresses taken so far, the report, the result. */
interface RedirectScope {
  rules: RuleSet;
  /** The old addresses (fromKey) that a candidate or a stored rule already answers in this chunk. */
  taken: Set<string>;
  lines: ImportReportLine[];
  candidates: RedirectCandidate[];
  /** The item each candidate came from (by fromKey), for the report line of one refused. */
  labels: Map<string, string>;
}

/**
 * Adds the redirect from one old address of `post` to `target` (asked only when the address is
 * not taken yet; one the site answers itself is refused, and noted, when the chunk's redirects
 * are written), unless: the address is malformed (noted, unless `noteInvalid` is false) or
 * taken already, there is no target or it is not a site path, a stored rule has the address
 * (noted when that rule points elsewhere), or it is the path `except` (the page itself). An
 * address with a usable target is taken from then on, even when no redirect is added.
 */
async function addRedirect(
  url: string,
  target: (from: RedirectKey) => string | null | Promise<string | null>,
  post: ImportedPost,
  scope: RedirectScope,
  { noteInvalid = true, except }: { noteInvalid?: boolean; except?: string } = {},
): Promise<void> {
  const from = normalizeFrom(url);
  if (!from.ok) {
    if (noteInvalid)
      scope.lines.push({ item: post.label, outcome: "note", reason: "redirectInvalid", detail: url.slice(0, 200) });
    return;
  }
  const key = fromKey(from);
  if (scope.taken.has(key)) return;
  const to = await target(from);
  const checked = to === null ? null : checkTarget(to, false);
  if (!checked?.ok) return;
  scope.taken.add(key);
  const stored = scope.rules.get(from);
  if (stored) {
    if (stored.to !== checked.target)
      scope.lines.push({ item: post.label, outcome: "note", reason: "redirectExists", detail: key });
    return;
  }
  if (from.path === except) return;
  scope.labels.set(key, post.label);
  scope.candidates.push({
    line: 0,
    fromPath: from.path,
    fromQuery: from.query,
    to: checked.target,
    status: 301,
    external: false,
  });
}

/**
 * The redirects from a written post's old addresses to its page (under /en or /zh when the old
 * address was), skipping addresses that cannot be redirected and ones another row already has.
 */
async function addPostRedirects(scope: RedirectScope, post: ImportedPost, postId: string): Promise<void> {
  const locales = new Set(post.translations.map((t) => t.locale));
  const page = `/posts/detail/${postId}`;
  const target = (from: RedirectKey) => {
    const prefix = /^\/(en|zh)(\/|$)/.exec(from.path)?.[1] as Locale | undefined;
    return `${prefix && locales.has(prefix) ? `/${prefix}` : ""}${page}`;
  };
  for (const url of post.oldUrls) await addRedirect(url, target, post, scope, { except: page });
}

/**
 * Redirects for the old addresses of a written post's tags (`/tag/{slug}/` → `/tags/{our slug}`),
 * each address once: a tag shared by many posts is redirected by the first one written.
 */
async function addTagRedirects(trx: Transaction<Database>, scope: RedirectScope, post: ImportedPost): Promise<void> {
  for (const { from: url, tag } of post.tagUrls ?? []) {
    const target = async () => {
      // The post's tags were made (or found) by writePost: this finds the same row.
      const [tagId] = await ensureTags(trx, [tag]);
      const row = tagId
        ? await trx.selectFrom("tags").select("slug").where("id", "=", tagId).executeTakeFirst()
        : undefined;
      return row ? `/tags/${encodeURIComponent(row.slug)}` : null;
    };
    await addRedirect(url, target, post, scope);
  }
}

/**
 * Redirects for the old addresses of a written post's category (`/category/{path}/` →
 * `/categories/{our slug}`), each address once, like the tags'.
 */
async function addCategoryRedirects(
  trx: Transaction<Database>,
  scope: RedirectScope,
  post: ImportedPost,
): Promise<void> {
  const [first] = post.categories;
  if (!first) return;
  const target = async () => {
    // writePost made (or found) this category: the same row.
    const id = await ensureCategory(trx, first.slice(0, 100));
    const row = await trx.selectFrom("categories").select("slug").where("id", "=", id).executeTakeFirst();
    return row ? `/categories/${encodeURIComponent(row.slug)}` : null;
  };
  for (const url of post.categoryUrls ?? []) await addRedirect(url, target, post, scope);
}

/**
 * Redirects for the old page of a written post's author (Ghost's `/author/{slug}/` →
 * `/authors/{handle}`), each address once, like the tags'.
 */
async function addAuthorRedirects(
  trx: Transaction<Database>,
  scope: RedirectScope,
  kind: string,
  post: ImportedPost,
  known: ChunkLookups,
): Promise<void> {
  const author = post.author;
  if (!author || author.oldUrls.length === 0) return;
  let handle = known.handles.get(author.sourceId);
  if (handle === undefined) {
    const row = await trx
      .selectFrom("importSources as s")
      .innerJoin("users as u", "u.id", "s.targetId")
      .select("u.handle")
      .where("s.source", "=", kind)
      .where("s.entity", "=", "author")
      .where("s.sourceId", "=", author.sourceId)
      .executeTakeFirst();
    handle = row?.handle ?? null;
    known.handles.set(author.sourceId, handle);
  }
  if (!handle) return;
  const page = `/authors/${encodeURIComponent(handle)}`;
  // Without a page to send them to, the old addresses are not read (nor noted).
  if (!checkTarget(page, false).ok) return;
  for (const url of author.oldUrls) await addRedirect(url, () => page, post, scope);
}

/** Redirects for a source's site-wide old addresses (its feeds), each once; none over a stored rule. */
async function addSiteRedirects(scope: RedirectScope, post: ImportedPost): Promise<void> {
  for (const { from: url, to } of post.siteUrls ?? [])
    await addRedirect(url, () => to, post, scope, { noteInvalid: false });
}

/**
 * The redirects table as the last chunk of an import left it, kept for the next chunk of the same
 * import (decision 020, "At scale"): reloading ~40,000 rules per chunk made a 10,000-post import
 * slow down as it went. It is used only when the table's version (rulesVersion) is the one this
 * process expects after its own writes; any other write (an admin's edit, another import) makes
 * the next chunk reload. Set only after a chunk committed; a failed chunk drops it.
 */
const chunkRules = new WeakMap<DB, { importId: string; version: RulesVersion; rules: RuleSet }>();

/** Another run moved the import on first (a lease lost mid-chunk): this chunk is rolled back. */
class ImportMoved extends Error {}

export type PostChunkOutcome = "idle" | "progress" | "done";

interface PreparedChunk {
  /** Items read (0: the import has none left). */
  rows: number;
  lastSeq: number;
  counts: ImportCounts;
  lines: ImportReportLine[];
  ready: Prepared[];
}

interface ChunkInProgress {
  /** Settles when this thread's part is done (items read, images stored, renders asked for); never rejects. */
  gathered: Promise<void>;
  result: Promise<PreparedChunk>;
}

/**
 * Reads the items of a chunk from `fromSeq` and prepares them (earlySkips, images, renders),
 * outside any transaction. Nothing here writes posts: a chunk prepared and never written (the
 * import was cancelled, or another run moved it on) only leaves stored images behind, as a
 * chunk whose transaction failed does.
 */
function prepareChunk(deps: PostImportDeps, job: Job, fromSeq: number, size: number): ChunkInProgress {
  const { db } = deps;
  const gather = (async () => {
    const rows = await db
      .selectFrom("postImportItems")
      .select(["seq", "payload"])
      .where("importId", "=", job.id)
      .where("seq", ">=", fromSeq)
      .orderBy("seq")
      .limit(size)
      .execute();
    const items = rows.map((row) => {
      const post = JSON.parse(row.payload) as ImportedPost;
      return { post, hash: itemHash(post) };
    });
    const skips = await earlySkips(db, job.kind, items);
    const slots: Array<{ skipped: { label: string; reason: string } } | { gathered: Gathered }> = [];
    for (const [i, { post, hash }] of items.entries()) {
      const skip = skips[i];
      slots.push(
        skip ? { skipped: { label: post.label, reason: skip } } : { gathered: await prepare(deps, job, post, hash) },
      );
    }
    return { rows: rows.length, lastSeq: rows[rows.length - 1]?.seq ?? fromSeq, slots };
  })();
  const result = gather.then(async ({ rows, lastSeq, slots }): Promise<PreparedChunk> => {
    const counts = emptyCounts();
    const lines: ImportReportLine[] = [];
    const ready: Prepared[] = [];
    for (const slot of slots) {
      if ("skipped" in slot) {
        counts.skipped += 1;
        lines.push({ item: slot.skipped.label, outcome: "skipped", reason: slot.skipped.reason });
        continue;
      }
      const prep = await slot.gathered.result;
      if (!prep.ok) {
        counts.failed += 1;
        lines.push(...prep.lines, prep.line);
        continue;
      }
      counts.imagesStored += prep.prepared.imagesStored;
      counts.imagesMissing += prep.prepared.imagesMissing;
      ready.push(prep.prepared);
    }
    return { rows, lastSeq, counts, lines, ready };
  });
  // A chunk prepared ahead may be dropped unread: its failure then must not go unhandled (a use
  // of `result` still sees it).
  result.catch(() => {});
  return {
    gathered: gather.then(
      () => {},
      () => {},
    ),
    result,
  };
}

/**
 * The chunk after the one being written, prepared while it was written (importNextPostChunk), per
 * database. Used only by the next call for the same import at the same cursor; anything else
 * (another import first, a cursor moved by another run, another chunk size) prepares afresh.
 */
const aheadChunks = new WeakMap<DB, ChunkInProgress & { importId: string; fromSeq: number; size: number }>();

/**
 * Does one step of the oldest unfinished import: writes its next chunk of posts in one
 * transaction with the cursor, or marks it done (with its audit entry) when no items are left.
 * Returns the ids of posts written in `written` so the caller can reindex and announce them.
 */
export async function importNextPostChunk(
  deps: PostImportDeps,
  opts: { now?: Date; chunk?: number; written?: string[] } = {},
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
  const { rows, lastSeq, counts, lines, ready } = await current.result;

  if (rows === 0) {
    chunkRules.delete(db);
    const finished = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("postImports")
        .set({ status: "done", finishedAt: at, updatedAt: at, failures: 0 })
        .where("id", "=", job.id)
        .where("status", "in", ["queued", "running"])
        .where("processed", "=", processed)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom("postImportItems").where("importId", "=", job.id).execute();
      if (job.actorId)
        await audit(
          trx,
          { id: job.actorId, email: job.actorEmail },
          "posts.import",
          { type: "post" },
          {
            kind: job.kind,
            label: job.label,
            imported: Number(job.imported),
            updated: Number(job.updated),
            skipped: Number(job.skipped),
            failed: Number(job.failed),
            redirects: Number(job.redirectsAdded),
          },
        );
      return true;
    });
    return finished ? "done" : "progress";
  }

  // The next chunk's reads, images and render requests go before this chunk's transaction (which
  // holds SQLite's one connection): the render worker works on them while this thread writes.
  const next = prepareChunk(deps, job, lastSeq + 1, size);
  aheadChunks.set(db, { importId: job.id, fromSeq: lastSeq + 1, size, ...next });
  await next.gathered;
  const written: string[] = [];
  const cached = chunkRules.get(db);
  chunkRules.delete(db);
  let kept: { version: RulesVersion; rules: RuleSet } | null = null;
  try {
    const actor = job.actorId ? { id: job.actorId, email: job.actorEmail } : IMPORTER;
    await withPostLifecycle(db, actor, async (life) => {
      const { trx } = life;
      const version = await rulesVersion(trx);
      const rules =
        cached && cached.importId === job.id && sameRulesVersion(cached.version, version)
          ? cached.rules
          : new RuleSet(await loadRules(trx));
      let next = version;
      const scope: RedirectScope = {
        rules,
        taken: new Set<string>(),
        lines,
        candidates: [],
        labels: new Map<string, string>(),
      };
      const known: ChunkLookups = { authors: new Map(), handles: new Map() };
      const indexRows = new Map<string, PostSearchTable[]>();
      for (const p of ready) {
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
        await addPostRedirects(scope, p.post, result.postId);
        await addTagRedirects(trx, scope, p.post);
        await addCategoryRedirects(trx, scope, p.post);
        await addAuthorRedirects(trx, scope, job.kind, p.post, known);
        await addSiteRedirects(scope, p.post);
      }
      if (scope.candidates.length > 0) {
        const result = await importRedirectsInto(trx, rules, scope.candidates, `import:${job.kind}`, at);
        const { outcome } = result;
        if (result.written > 0) next = { count: version.count + result.inserted, latest: at };
        counts.redirectsAdded += outcome.added;
        for (const r of outcome.refused) {
          // The site's own addresses and live pages are named for what they are; loops as before.
          const reason =
            r.reason === "fromReserved"
              ? "redirectReserved"
              : r.reason === "fromLive"
                ? "redirectLive"
                : `redirect:${r.reason}`;
          lines.push({ item: scope.labels.get(r.from) ?? r.from, outcome: "note", reason, detail: r.from });
        }
      }
      // The written posts' search rows, segmented before the transaction, with the posts: one
      // transaction (and one commit) a chunk instead of two.
      await replaceIndexRows(trx, indexRows);
      await trx
        .deleteFrom("postImportItems")
        .where("importId", "=", job.id)
        .where("seq", ">=", processed)
        .where("seq", "<=", lastSeq)
        .execute();
      const current = await trx.selectFrom("postImports").select("report").where("id", "=", job.id).executeTakeFirst();
      // The report keeps what needs a look; the counts say the rest.
      const worth = lines.filter(
        (l) =>
          l.outcome !== "imported" && l.outcome !== "updated" && !(l.outcome === "skipped" && l.reason === "unchanged"),
      );
      const report = [...parseReport(current?.report ?? "[]"), ...worth].slice(0, REPORT_MAX_LINES);
      const moved = await trx
        .updateTable("postImports")
        .set((eb) => ({
          status: "running",
          processed: lastSeq + 1,
          imported: eb("imported", "+", counts.imported),
          updated: eb("updated", "+", counts.updated),
          skipped: eb("skipped", "+", counts.skipped),
          failed: eb("failed", "+", counts.failed),
          imagesStored: eb("imagesStored", "+", counts.imagesStored),
          imagesMissing: eb("imagesMissing", "+", counts.imagesMissing),
          redirectsAdded: eb("redirectsAdded", "+", counts.redirectsAdded),
          commentsAdded: eb("commentsAdded", "+", counts.commentsAdded),
          report: JSON.stringify(report),
          failures: 0,
          updatedAt: at,
        }))
        .where("id", "=", job.id)
        .where("status", "in", ["queued", "running"])
        .where("processed", "=", processed)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new ImportMoved();
      kept = { version: next, rules };
    });
  } catch (error) {
    if (error instanceof ImportMoved) return "progress";
    throw error;
  }
  if (kept) chunkRules.set(db, { importId: job.id, ...(kept as { version: RulesVersion; rules: RuleSet }) });
  if (written.length > 0) forgetPostCounts(db);
  opts.written?.push(...written);
  return "progress";
}

/**
 * Counts a failed chunk against the oldest unfinished import; at POST_IMPORT_MAX_FAILURES in a row
 * it is marked failed and its items deleted. True when the import was given up.
 */
export async function notePostImportFailure(db: DB, error: unknown, now = new Date()): Promise<boolean> {
  const job = await nextImport(db);
  if (!job) return false;
  const at = nowIso(now);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("postImports")
      .set((eb) => ({ failures: eb("failures", "+", 1), updatedAt: at }))
      .where("id", "=", job.id)
      .returning("failures")
      .executeTakeFirst();
    if (!row || Number(row.failures) < POST_IMPORT_MAX_FAILURES) return false;
    const detail = (error instanceof Error ? error.message : String(error)).slice(0, 200);
    const report = [
      ...parseReport(job.report),
      { item: job.label, outcome: "failed" as const, reason: "importFailed", detail },
    ].slice(0, REPORT_MAX_LINES + 1);
    await trx
      .updateTable("postImports")
      .set({ status: "failed", finishedAt: at, updatedAt: at, report: JSON.stringify(report) })
      .where("id", "=", job.id)
      .execute();
    await trx.deleteFrom("postImportItems").where("importId", "=", job.id).execute();
    return true;
  });
}

/**
 * A dry run: what an import of these posts would do, writing nothing. Images are looked up but
 * not stored; bodies are not rendered (a body too long or too deep is still reported).
 */
export async function planPostImport(
  db: DB,
  input: { kind: string; read: SourceRead; images: ImageResolver; fetchRemote?: boolean },
): Promise<{ counts: ImportCounts; report: ImportReportLine[] }> {
  const report: ImportReportLine[] = [];
  const plan = startPostImportPlan(db, {
    kind: input.kind,
    images: input.images,
    onLine: (l) => report.push(l),
    fetchRemote: input.fetchRemote === true,
  });
  plan.problems(input.read.problems);
  for (const post of input.read.posts) await plan.add(post);
  return { counts: plan.counts, report };
}

/**
 * A dry run fed one post at a time (a reader that streams): the counts grow as posts are added
 * and each report line goes to `onLine` at once, so nothing but the counts is held.
 */
export function startPostImportPlan(
  db: DB,
  input: { kind: string; images: ImageResolver; onLine: (line: ImportReportLine) => void; fetchRemote?: boolean },
): {
  counts: ImportCounts;
  problems: (lines: readonly ImportReportLine[]) => void;
  add: (post: ImportedPost) => Promise<void>;
  /** Posts already checked where they were read (checkPost, on the upload check's worker), in order. */
  addChecked: (posts: readonly CheckedPost[]) => Promise<void>;
} {
  const counts = emptyCounts();
  const { onLine } = input;
  /** One post, with what the batch's lookups found: its early skip, and whether it was imported before. */
  const addOne = async (post: CheckedPost, skip: string | null, mapped: boolean) => {
    counts.total += 1;
    for (const note of post.notes) onLine(note);
    if (skip) {
      counts.skipped += 1;
      onLine({ item: post.label, outcome: "skipped", reason: skip });
      return;
    }
    if (post.failure) {
      counts.failed += 1;
      onLine(post.failure);
      return;
    }
    for (const ref of post.refs) {
      const found = await input.images.resolve(ref, post.assetDirs);
      if (found.kind === "missing") {
        counts.imagesMissing += 1;
        onLine({ item: post.label, outcome: "imageMissing", reason: found.reason, detail: found.rel });
      } else if (found.kind === "remote" && /^https?:\/\//i.test(ref))
        // Not fetched in a dry run: said what the import will do with it.
        onLine({
          item: post.label,
          outcome: "note",
          reason: input.fetchRemote ? "imageRemoteFetch" : "imageRemoteKept",
          detail: ref.slice(0, 300),
        });
    }
    const outcome = mapped ? "updated" : "imported";
    counts[outcome] += 1;
    // An upper bound: comments written by an earlier run are not written again.
    counts.commentsAdded += post.comments;
    onLine({ item: post.label, outcome });
  };
  // Three queries per hundred posts rather than three per post: the thread that serves requests runs them.
  const addChecked = async (posts: readonly CheckedPost[]) => {
    const skips = await earlySkips(
      db,
      input.kind,
      posts.map((p) => ({ post: { sourceId: p.sourceId }, hash: p.hash })),
    );
    const mapped = new Set<string>();
    await inSlices([...new Set(posts.map((p) => p.sourceId))], async (slice) => {
      const rows = await db
        .selectFrom("importSources")
        .select("sourceId")
        .where("source", "=", input.kind)
        .where("entity", "=", "post")
        .where("sourceId", "in", slice)
        .execute();
      for (const r of rows) mapped.add(r.sourceId);
    });
    for (const [i, post] of posts.entries()) await addOne(post, skips[i] ?? null, mapped.has(post.sourceId));
  };
  return {
    counts,
    problems(lines) {
      for (const line of lines) {
        if (line.outcome === "failed") counts.failed += 1;
        onLine(line);
      }
    },
    add: async (post) => addChecked([await checkPost(post)]),
    addChecked,
  };
}

/** Starts a staged import of `actorId`'s; false when there is no such staged import. */
export async function confirmPostImport(db: DB, id: string, actorId: string, now = new Date()): Promise<boolean> {
  const at = nowIso(now);
  const result = await db
    .updateTable("postImports")
    .set({ status: "queued", createdAt: at, updatedAt: at })
    .where("id", "=", id)
    .where("actorId", "=", actorId)
    .where("status", "=", "staged")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops a staged import of `actorId`'s with its items; returns its folder (to remove), or null. */
export async function cancelPostImport(db: DB, id: string, actorId: string): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("postImports")
      .select("rootDir")
      .where("id", "=", id)
      .where("actorId", "=", actorId)
      .where("status", "=", "staged")
      .executeTakeFirst();
    if (!row) return null;
    await trx.deleteFrom("postImportItems").where("importId", "=", id).execute();
    await trx.deleteFrom("postImports").where("id", "=", id).execute();
    return row.rootDir;
  });
}

/** The latest imports, newest first, for the admin Import page. */
/** Keeps a staged import's dry run (bounded like any report) for the admin to download. */
export async function savePostImportPlan(
  db: DB,
  id: string,
  plan: { counts: ImportCounts; report: ImportReportLine[] },
): Promise<void> {
  const report = plan.report.filter((l) => l.outcome !== "imported" && l.outcome !== "updated");
  const value = JSON.stringify({ counts: plan.counts, report: report.slice(0, REPORT_MAX_LINES) });
  await db.updateTable("postImports").set({ plan: value }).where("id", "=", id).execute();
}

/**
 * An import's report for download: `plan` is its kept dry run (null when none was kept), `final`
 * its own report and counts once it has ended (done or failed; null before).
 */
export async function postImportReport(db: DB, id: string, which: "plan" | "final"): Promise<PostImportReport | null> {
  const r = await db.selectFrom("postImports").selectAll().where("id", "=", id).executeTakeFirst();
  if (!r) return null;
  const base = {
    id: r.id,
    kind: r.kind,
    label: r.label,
    status: r.status,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
  if (which === "plan") {
    if (r.plan === null) return null;
    try {
      const v = JSON.parse(r.plan) as { counts?: Partial<ImportCounts>; report?: unknown };
      return {
        ...base,
        counts: { ...emptyCounts(), ...(v.counts ?? {}) },
        report: Array.isArray(v.report) ? (v.report as ImportReportLine[]) : [],
      };
    } catch {
      return null;
    }
  }
  if (r.status !== "done" && r.status !== "failed") return null;
  const job = await getPostImport(db, id);
  if (!job) return null;
  const {
    id: _i,
    kind: _k,
    status: _s,
    label: _l,
    processed: _p,
    report,
    createdAt: _c,
    finishedAt: _f,
    hasPlan: _h,
    ...counts
  } = job;
  return { ...base, counts, report };
}

export async function recentPostImports(db: DB, limit = 3): Promise<PostImportJob[]> {
  const rows = await db
    .selectFrom("postImports")
    .select("id")
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const jobs = await Promise.all(rows.map((r) => getPostImport(db, r.id)));
  return jobs.filter((j): j is PostImportJob => j !== null);
}

/** The folders unfinished imports (reading, staged, queued, running) still read. */
export async function importFoldersInUse(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom("postImports")
    .select("rootDir")
    .where("status", "in", ["reading", "staged", "queued", "running"])
    .execute();
  return rows.map((r) => r.rootDir);
}
