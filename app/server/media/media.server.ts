// The media library in one module (~400 lines): storing an upload, its variants,
// listing, usage and deletion all share the variant names and the row mapping.
import { type Selectable, sql } from "kysely";
import type { Logger } from "pino";
import { MEDIA_SORTS, type MediaImage, type MediaSort, mediaSrcSet, mediaUrl } from "../../lib/media.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { clampPage } from "../db/paging.server.ts";
import { likePattern } from "../db/query.server.ts";
import type { MediaFile, MediaTable } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import { STORAGE_UPLOAD_DEADLINE_MS } from "../storage/retry.server.ts";
import { type StorageDriver, StorageError } from "../storage/types.server.ts";
import { ImageError, processImage } from "./image.server.ts";
import { checkImageKind } from "./sniff.server.ts";

/** Stored files never change under their name: browsers and CDNs may keep them for a year. */
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** The longest original file name kept (as metadata only). */
export const ORIGINAL_NAME_MAX = 200;

export interface MediaRecord {
  id: string;
  originalName: string;
  bucket: string;
  name: string;
  fullPath: string;
  size: number;
  md5Hash: string;
  generation: string;
  metageneration: number;
  contentType: string;
  cacheControl: string;
  contentDisposition: string;
  contentEncoding: string;
  contentLanguage: string;
  customMetadata: Record<string, string>;
  width: number;
  height: number;
  variants: MediaFile[];
  uploadedBy: string | null;
  timeCreated: string;
  updated: string;
  /** Site-relative address of the main file. */
  url: string;
  srcSet: string;
}

export type UploadFailure =
  | { code: "invalid-format"; reason: "extension" | "content" | "mismatch" | "unreadable" }
  | { code: "unsafe-svg" }
  | { code: "too-many-pixels" };

export class UploadRejected extends Error {
  override name = "UploadRejected";
  readonly failure: UploadFailure;
  constructor(failure: UploadFailure) {
    super(failure.code);
    this.failure = failure;
  }
}

type MediaRow = {
  id: string;
  originalName: string;
  bucket: string;
  name: string;
  fullPath: string;
  size: number | string;
  md5Hash: string;
  generation: string;
  metageneration: number | string;
  contentType: string;
  cacheControl: string;
  contentDisposition: string;
  contentEncoding: string;
  contentLanguage: string;
  customMetadata: string;
  width: number | string;
  height: number | string;
  variants: string;
  uploadedBy: string | null;
  createdAt: string;
  updatedAt: string;
};

function parseJson<T>(raw: string, fallback: T): T {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

function toRecord(row: MediaRow): MediaRecord {
  const variants = parseJson<MediaFile[]>(row.variants, []);
  const file = row.name.slice(row.id.length + 1);
  return {
    id: row.id,
    originalName: row.originalName,
    bucket: row.bucket,
    name: row.name,
    fullPath: row.fullPath,
    size: Number(row.size),
    md5Hash: row.md5Hash,
    generation: row.generation,
    metageneration: Number(row.metageneration),
    contentType: row.contentType,
    cacheControl: row.cacheControl,
    contentDisposition: row.contentDisposition,
    contentEncoding: row.contentEncoding,
    contentLanguage: row.contentLanguage,
    customMetadata: parseJson<Record<string, string>>(row.customMetadata, {}),
    width: Number(row.width),
    height: Number(row.height),
    variants,
    uploadedBy: row.uploadedBy,
    timeCreated: row.createdAt,
    updated: row.updatedAt,
    url: mediaUrl(row.id, file),
    srcSet: mediaSrcSet(row.id, variants),
  };
}

/** The user's file name as metadata: no path, no control characters, bounded length. */
export function cleanOriginalName(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (cleaned || "image").slice(0, ORIGINAL_NAME_MAX);
}

export interface StoreUploadInput {
  fileName: string;
  data: Buffer;
  uploadedBy: string | null;
  /** Free-form strings kept with the object (spec: customMetadata). */
  customMetadata?: Record<string, string>;
  /** Cancels the upload (the client went away). */
  signal?: AbortSignal;
}

/**
 * Checks, re-encodes and stores one image, then records it. Either everything is
 * stored and recorded, or nothing is: files written before a failure are removed,
 * and the row is inserted only after every file is in place.
 */
export async function storeUpload(
  deps: { db: DB; storage: StorageDriver; log?: Logger; uploadDeadlineMs?: number },
  input: StoreUploadInput,
): Promise<MediaRecord> {
  const kind = checkImageKind(input.fileName, input.data.subarray(0, 4096));
  if (!kind.ok) throw new UploadRejected({ code: "invalid-format", reason: kind.reason });
  let processed: Awaited<ReturnType<typeof processImage>>;
  try {
    processed = await processImage(input.data, kind.kind);
  } catch (error) {
    if (error instanceof ImageError) {
      if (error.code === "invalid-format") throw new UploadRejected({ code: "invalid-format", reason: "unreadable" });
      throw new UploadRejected({ code: error.code });
    }
    throw error;
  }

  const id = newId();
  const originalName = cleanOriginalName(input.fileName);
  const customMetadata = { ...input.customMetadata, sourceWidth: String(processed.sourceWidth) };
  const written: string[] = [];
  const { storage } = deps;
  // One deadline for all of an upload's files (spec section 9: uploads retry up to 10 minutes).
  const deadline = Date.now() + (deps.uploadDeadlineMs ?? STORAGE_UPLOAD_DEADLINE_MS);
  try {
    const files = [...processed.variants, processed.fallback];
    const infos = [];
    for (const file of files) {
      const key = `${id}/${file.file}`;
      written.push(key);
      infos.push(
        await storage.put(key, file.data, {
          contentType: file.contentType,
          cacheControl: MEDIA_CACHE_CONTROL,
          customMetadata: { mediaId: id },
          deadlineMs: Math.max(1, deadline - Date.now()),
          ...(input.signal ? { signal: input.signal } : {}),
        }),
      );
    }
    const main = infos[infos.length - 1];
    if (!main) throw new StorageError("unknown", "nothing was stored");
    const now = nowIso();
    const variants: MediaFile[] = processed.variants.map((v) => ({
      file: v.file,
      contentType: v.contentType,
      width: v.width,
      height: v.height,
      size: v.data.length,
    }));
    const row: Selectable<MediaTable> = {
      id,
      originalName,
      bucket: main.bucket,
      name: main.name,
      fullPath: main.fullPath,
      size: main.size,
      md5Hash: main.md5Hash,
      generation: main.generation,
      metageneration: 1,
      contentType: processed.fallback.contentType,
      cacheControl: MEDIA_CACHE_CONTROL,
      contentDisposition: "inline",
      contentEncoding: "",
      contentLanguage: "",
      customMetadata: JSON.stringify(customMetadata),
      width: processed.fallback.width,
      height: processed.fallback.height,
      variants: JSON.stringify(variants),
      uploadedBy: input.uploadedBy,
      createdAt: now,
      updatedAt: now,
    };
    await deps.db.insertInto("media").values(row).execute();
    return toRecord(row);
  } catch (error) {
    // Storage may be what failed: try the cleanup briefly rather than for another 2 minutes.
    await removeKeys(storage, written, deps.log, CLEANUP_DEADLINE_MS);
    throw error;
  }
}

/** How long removing an upload's files after a failure may retry; `media gc` removes what is left. */
const CLEANUP_DEADLINE_MS = 5_000;

async function removeKeys(
  storage: StorageDriver,
  keys: readonly string[],
  log?: Logger,
  deadlineMs?: number,
): Promise<void> {
  for (const key of keys) {
    try {
      await storage.delete(key, deadlineMs ? { deadlineMs } : {});
    } catch (error) {
      // `media gc` removes whatever is left.
      log?.warn({ err: error, key }, "could not remove a stored file");
    }
  }
}

export async function getMedia(db: DB, id: string): Promise<MediaRecord | null> {
  const row = await db.selectFrom("media").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** What pages need for each of these media ids (unknown ids are left out). */
export async function mediaImages(db: DB, ids: readonly string[]): Promise<Map<string, MediaImage>> {
  // "" stands for "no image" (a post without a cover): no query for it.
  const unique = [...new Set(ids)].filter((id) => id !== "");
  const out = new Map<string, MediaImage>();
  if (unique.length === 0) return out;
  const rows = await db
    .selectFrom("media")
    .select(["id", "name", "width", "height", "variants"])
    .where("id", "in", unique)
    .execute();
  for (const row of rows) {
    const variants = parseJson<MediaFile[]>(row.variants, []);
    out.set(row.id, {
      id: row.id,
      src: `/media/${row.name}`,
      width: Number(row.width),
      height: Number(row.height),
      srcSet: mediaSrcSet(row.id, variants),
    });
  }
  return out;
}

export async function listMedia(
  db: DB,
  opts: { q?: string; sort?: string; page: number; pageSize: number },
): Promise<{ items: MediaRecord[]; total: number; page: number; pageCount: number }> {
  const q = opts.q?.trim() ?? "";
  const sort: MediaSort = (MEDIA_SORTS as readonly string[]).includes(opts.sort ?? "")
    ? (opts.sort as MediaSort)
    : "newest";
  const like = likePattern(q);
  const search = sql<boolean>`(lower(m."originalName") like ${like} escape '\\' or m."id" like ${like} escape '\\')`;
  const total = Number(
    (
      await db
        .selectFrom("media as m")
        .$if(q !== "", (qb) => qb.where(search))
        .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const { page, pageCount } = clampPage(total, opts.page, opts.pageSize);
  const order = {
    newest: sql`m."createdAt" desc`,
    oldest: sql`m."createdAt" asc`,
    name: sql`lower(m."originalName") asc`,
    size: sql`m."size" desc`,
  }[sort];
  const rows = await db
    .selectFrom("media as m")
    .$if(q !== "", (qb) => qb.where(search))
    .selectAll()
    .orderBy(order)
    .orderBy("m.id")
    .limit(opts.pageSize)
    .offset((page - 1) * opts.pageSize)
    .execute();
  return { items: rows.map(toRecord), total, page, pageCount };
}

export type MediaUsage =
  | { kind: "post"; id: string; title: string }
  | { kind: "swaper"; id: string; title: string }
  | { kind: "ad"; id: string; title: string }
  | { kind: "link"; id: string; title: string }
  | { kind: "avatar"; id: string; title: string }
  | { kind: "settings"; id: string; title: string };

/**
 * Every place that refers to each image: post covers and bodies (drafts and the
 * trash too: restoring must not bring back a broken image), slides, ads, friend
 * links, people's avatars and the site settings. Matching is on "/media/{id}/", which no other
 * address can contain (ids are 20 random characters). One query per table for
 * the whole list, whatever its length.
 */
export async function findUsagesForMany(db: DB, ids: readonly string[]): Promise<Map<string, MediaUsage[]>> {
  const out = new Map<string, MediaUsage[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const likes = ids.map((id) => `%/media/${id}/%`);
  const anyLike = (column: string) =>
    sql<boolean>`(${sql.join(
      likes.map((l) => sql`${sql.ref(column)} like ${l}`),
      sql` or `,
    )})`;
  const [posts, swapers, ads, links, users, settings] = await Promise.all([
    db
      .selectFrom("posts as p")
      .leftJoin("postTranslations as t", "t.postId", "p.id")
      .select(["p.id", "p.slug", "p.coverImageUrl", "t.title", "t.bodyMarkdown"])
      .where((eb) => eb.or([anyLike("p.coverImageUrl"), anyLike("t.bodyMarkdown")]))
      .execute(),
    db.selectFrom("swapers").select(["id", "titleEn", "titleZh", "imageUrl"]).where(anyLike("imageUrl")).execute(),
    db
      .selectFrom("ads")
      .select(["id", "title", "titleZh", "imageUrl", "imageUrlZh"])
      .where((eb) => eb.or([anyLike("imageUrl"), anyLike("imageUrlZh")]))
      .execute(),
    db.selectFrom("links").select(["id", "name", "logoUrl"]).where(anyLike("logoUrl")).execute(),
    db.selectFrom("users").select(["id", "name", "image"]).where(anyLike("image")).execute(),
    db.selectFrom("siteSettings").select(["key", "value"]).where(anyLike("value")).execute(),
  ]);
  const add = (texts: Array<string | null>, usage: MediaUsage) => {
    for (const id of ids) {
      if (!texts.some((text) => text?.includes(`/media/${id}/`))) continue;
      const list = out.get(id);
      if (list && !list.some((u) => u.kind === usage.kind && u.id === usage.id)) list.push(usage);
    }
  };
  for (const p of posts) add([p.coverImageUrl, p.bodyMarkdown], { kind: "post", id: p.id, title: p.title ?? p.slug });
  for (const s of swapers) add([s.imageUrl], { kind: "swaper", id: s.id, title: s.titleEn || s.titleZh || s.id });
  for (const a of ads) add([a.imageUrl, a.imageUrlZh], { kind: "ad", id: a.id, title: a.title || a.titleZh });
  for (const l of links) add([l.logoUrl], { kind: "link", id: l.id, title: l.name });
  for (const u of users) add([u.image], { kind: "avatar", id: u.id, title: u.name });
  for (const row of settings) add([row.value], { kind: "settings", id: row.key, title: row.key });
  return out;
}

export async function findMediaUsages(db: DB, id: string): Promise<MediaUsage[]> {
  return (await findUsagesForMany(db, [id])).get(id) ?? [];
}

export type DeleteMediaResult =
  | { ok: true }
  | { ok: false; reason: "notFound" }
  | { ok: false; reason: "inUse"; usages: MediaUsage[] };

/** Deletes an image no content refers to: the row first, then its files. */
export async function deleteMedia(
  deps: { db: DB; storage: StorageDriver; log?: Logger },
  id: string,
): Promise<DeleteMediaResult> {
  const record = await getMedia(deps.db, id);
  if (!record) return { ok: false, reason: "notFound" };
  const usages = await findMediaUsages(deps.db, id);
  if (usages.length > 0) return { ok: false, reason: "inUse", usages };
  await deps.db.deleteFrom("media").where("id", "=", id).execute();
  await removeKeys(deps.storage, [...record.variants.map((v) => `${id}/${v.file}`), record.name], deps.log);
  return { ok: true };
}

/** Files younger than this are never collected: their upload may still be recording its row. */
export const GC_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * Files in the store that no media row (or social card) owns (left by a crash between writing and
 * recording, or a failed delete), older than GC_MIN_AGE_MS. Dry run unless `remove` is set.
 */
export async function collectGarbage(
  deps: { db: DB; storage: StorageDriver },
  opts: { remove: boolean; now?: number },
): Promise<{ orphans: string[]; removed: number }> {
  const known = new Set((await deps.db.selectFrom("media").select("id").execute()).map((r) => r.id));
  // The posts' social cards are stored beside the uploads, one folder each (social-cards/).
  for (const card of await deps.db.selectFrom("socialCards").select("id").execute()) known.add(card.id);
  const cutoff = (opts.now ?? Date.now()) - GC_MIN_AGE_MS;
  const orphans: string[] = [];
  for await (const key of deps.storage.list()) {
    const owner = key.split("/", 1)[0] ?? "";
    if (known.has(owner)) continue;
    const info = await deps.storage.head(key);
    if (info && info.updated.getTime() <= cutoff) orphans.push(key);
  }
  let removed = 0;
  if (opts.remove) {
    for (const key of orphans) {
      await deps.storage.delete(key);
      removed += 1;
    }
  }
  return { orphans, removed };
}
