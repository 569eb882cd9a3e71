import { withinNesting } from "../../../lib/markdown-depth.ts";
import type { MediaImage } from "../../../lib/media.ts";
import { PAGE_LIMITS } from "../../../lib/schemas/page.ts";
import { isCoverUrl, POST_LIMITS } from "../../../lib/schemas/post.ts";
import type { DB } from "../../db/db.server.ts";
import { nowIso } from "../../db/db.server.ts";
import { mediaImages } from "../../media/media.server.ts";
import { markdownModule } from "../../render/markdown-load.server.ts";
import { indexedText } from "../../search/indexed-text.server.ts";
import { emptyCounts, type ImportCounts, type ImportedPost, type ImportReportLine, itemHash } from "../core.server.ts";
import { imageReferences, rewriteReferences, storeImportedBytes, storeImportedImage } from "../images.server.ts";
import { earlySkips, rememberTarget, storedImageUrl } from "../import-sources.server.ts";
import { fetchRemoteImage } from "../remote-fetch.server.ts";
import type { ImportRenderRequest } from "../render.server.ts";
import { inProcessImportRenderer } from "../render-pool.server.ts";
import { commentBodies, renderComments } from "../write/comments.server.ts";
import type { ImportJob, PostImportDeps, Preparation, Prepared } from "./types.server.ts";

// A chunk's posts made ready to write, outside any transaction: items read, re-runs skipped
// early (earlySkips), images stored (each once per content, images.server.ts; remote ones
// fetched when asked), bodies handed to the renderer (a worker thread where there is one) and
// comments rendered. Nothing here writes posts: a chunk prepared and never written (the import
// was cancelled, or another run moved it on) only leaves stored images behind, as a chunk whose
// transaction failed does.

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
async function prepare(deps: PostImportDeps, job: ImportJob, post: ImportedPost, hash: string): Promise<Gathered> {
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
  const isPage = post.kind === "page";
  for (const t of post.translations) {
    if (t.bodyMarkdown.length > (isPage ? PAGE_LIMITS.bodyMax : POST_LIMITS.bodyMax))
      return settled(fail(isPage ? "pageBodyTooLong" : "bodyTooLong", t.origin, `${t.bodyMarkdown.length} characters`));
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

export interface PreparedChunk {
  /** Items read (0: the import has none left). */
  rows: number;
  lastSeq: number;
  counts: ImportCounts;
  lines: ImportReportLine[];
  ready: Prepared[];
}

export interface ChunkInProgress {
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
export function prepareChunk(deps: PostImportDeps, job: ImportJob, fromSeq: number, size: number): ChunkInProgress {
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
