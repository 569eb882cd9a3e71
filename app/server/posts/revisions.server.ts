import type { EditorInput } from "../../lib/schemas/post.ts";
import type { DB } from "../db/db.server.ts";
import type { Locale, PostStatus, RevisionKind } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";

// Post revisions (issue 23, docs/decisions/013-revisions.md). Each save of a post keeps
// what the post said afterwards; saves by the same author within REVISION_WINDOW_MS of
// that revision's start replace it, a status change always starts a new one, and each
// post keeps at most REVISION_CAP (oldest pruned first, never the one readers see).
// A "pending" revision holds changes to a live post that readers do not see yet.

/** One revision window: a save this long after the revision began starts a new one. */
export const REVISION_WINDOW_MS = 10 * 60_000;
/** Revisions kept per post. */
export const REVISION_CAP = 100;

export interface RevisionTranslation {
  title: string;
  summary: string;
  bodyMarkdown: string;
  seoTitle: string | null;
  seoDescription: string | null;
}

/** What a revision records of a post. */
export interface RevisionContent {
  status: PostStatus;
  slug: string;
  publishedAt: string | null;
  categoryId: string | null;
  tags: string[];
  coverImageUrl: string | null;
  coverAlt: string;
  /** The series and part number (null: none). */
  seriesId: string | null;
  seriesPosition: number | null;
  translations: Partial<Record<Locale, RevisionTranslation>>;
}

/** Where a save put the post in a series (after a new series was made and a part number chosen). */
export interface SeriesPlace {
  seriesId: string | null;
  seriesPosition: number | null;
}

export interface RevisionSummary {
  id: string;
  kind: RevisionKind;
  /** A pending revision's scheduled publication, if any. */
  scheduledFor: string | null;
  status: PostStatus;
  authorName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Revision extends RevisionSummary {
  postId: string;
  content: RevisionContent;
}

/**
 * A revision's content from the editor's valid input and the slug, publish time and series
 * place it was stored with.
 */
export function contentOfInput(
  input: EditorInput,
  slug: string,
  publishedAt: string | null,
  series: SeriesPlace = { seriesId: input.seriesId ?? null, seriesPosition: input.seriesPosition ?? null },
): RevisionContent {
  const translations: Partial<Record<Locale, RevisionTranslation>> = {};
  for (const t of input.translations) {
    translations[t.locale] = {
      title: t.title,
      summary: t.summary,
      bodyMarkdown: t.bodyMarkdown,
      seoTitle: t.seoTitle,
      seoDescription: t.seoDescription,
    };
  }
  return {
    status: input.status,
    slug,
    publishedAt,
    categoryId: input.categoryId,
    tags: [...input.tags],
    coverImageUrl: input.coverImageUrl,
    coverAlt: input.coverAlt,
    seriesId: series.seriesId,
    seriesPosition: series.seriesId ? series.seriesPosition : null,
    translations,
  };
}

/** The editor input that saves a revision's content again over the post at `version`. */
export function inputOfContent(content: RevisionContent, version: number): EditorInput {
  return {
    version,
    slug: content.slug,
    categoryId: content.categoryId,
    tags: [...content.tags],
    coverImageUrl: content.coverImageUrl,
    coverAlt: content.coverAlt,
    status: content.status,
    publishAt: content.publishedAt,
    seriesId: content.seriesId,
    seriesPosition: content.seriesPosition,
    translations: (["en", "zh"] as const).flatMap((locale) => {
      const t = content.translations[locale];
      return t ? [{ locale, ...t }] : [];
    }),
  };
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function isLocale(key: string): key is Locale {
  return key === "en" || key === "zh";
}

function translationsOf(text: string): Partial<Record<Locale, RevisionTranslation>> {
  const raw = parseJson<Record<string, Partial<RevisionTranslation>>>(text, {});
  const out: Partial<Record<Locale, RevisionTranslation>> = {};
  for (const [locale, t] of Object.entries(raw)) {
    if (!isLocale(locale) || typeof t !== "object" || t === null) continue;
    out[locale] = {
      title: String(t.title ?? ""),
      summary: String(t.summary ?? ""),
      bodyMarkdown: String(t.bodyMarkdown ?? ""),
      seoTitle: t.seoTitle ?? null,
      seoDescription: t.seoDescription ?? null,
    };
  }
  return out;
}

function tagsOf(text: string): string[] {
  const raw = parseJson<unknown>(text, []);
  return Array.isArray(raw) ? raw.map(String) : [];
}

export interface RecordOptions {
  postId: string;
  authorId: string;
  kind: RevisionKind;
  content: RevisionContent;
  now: string;
  /** False: always a new revision (a restore). */
  coalesce?: boolean;
  cap?: number;
  /**
   * The post was made in this transaction and has no revision yet (an import writing a new post):
   * there is no newest one to replace and nothing to prune, so neither is looked up.
   */
  fresh?: boolean;
}

/**
 * Keeps a revision of a save, inside the save's transaction. Replaces the post's newest
 * revision instead when it is the same author's, of the same kind and status, and began
 * less than REVISION_WINDOW_MS ago; a save that reaches readers replaces a pending
 * revision it supersedes (the changes went live, or were overwritten). Then prunes.
 * Returns the revision's id.
 */
export async function recordRevision(trx: DB, opts: RecordOptions): Promise<string> {
  const { postId, authorId, kind, content, now } = opts;
  const latest = opts.fresh
    ? undefined
    : await trx
        .selectFrom("postRevisions")
        .select(["id", "authorId", "kind", "status", "createdAt"])
        .where("postId", "=", postId)
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
  const values = {
    kind,
    status: content.status,
    slug: content.slug,
    publishedAt: content.publishedAt,
    categoryId: content.categoryId,
    tags: JSON.stringify(content.tags),
    coverImageUrl: content.coverImageUrl,
    coverAlt: content.coverAlt,
    translations: JSON.stringify(content.translations),
    seriesId: content.seriesId,
    seriesPosition: content.seriesPosition,
    authorId,
    // Saving again cancels a scheduled update: it applied to the changes as they were.
    scheduledFor: null,
    updatedAt: now,
  };
  const withinWindow =
    latest !== undefined &&
    opts.coalesce !== false &&
    latest.authorId === authorId &&
    latest.status === content.status &&
    Date.parse(now) - Date.parse(latest.createdAt) < REVISION_WINDOW_MS;
  const replace =
    latest !== undefined &&
    ((withinWindow && latest.kind === kind) ||
      // The pending changes were published (Update) or overwritten by a save that reaches readers.
      (latest.kind === "pending" && kind === "saved" && opts.coalesce !== false));
  let id: string;
  if (latest && replace) {
    id = latest.id;
    await trx.updateTable("postRevisions").set(values).where("id", "=", id).execute();
  } else {
    id = newId();
    await trx
      .insertInto("postRevisions")
      .values({ id, postId, createdAt: now, ...values })
      .execute();
  }
  if (!opts.fresh) await pruneRevisions(trx, postId, opts.cap ?? REVISION_CAP);
  return id;
}

/**
 * The revision that matches what the post holds now: the newest "saved" one (every
 * direct write to a post records one). For a published post, what readers see.
 */
export async function currentRevisionId(db: DB, postId: string): Promise<string | null> {
  const row = await db
    .selectFrom("postRevisions")
    .select("id")
    .where("postId", "=", postId)
    .where("kind", "=", "saved")
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Deletes the post's oldest revisions beyond `cap`, never the one matching the post as stored. */
export async function pruneRevisions(trx: DB, postId: string, cap: number): Promise<number> {
  const rows = await trx
    .selectFrom("postRevisions")
    .select("id")
    .where("postId", "=", postId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  if (rows.length <= cap) return 0;
  const keep = await currentRevisionId(trx, postId);
  const doomed = rows
    .map((r) => r.id)
    .filter((id) => id !== keep)
    .slice(0, rows.length - cap);
  if (doomed.length === 0) return 0;
  await trx.deleteFrom("postRevisions").where("id", "in", doomed).execute();
  return doomed.length;
}

/** The post's revisions, newest first, with who saved them. */
export async function listRevisions(db: DB, postId: string): Promise<RevisionSummary[]> {
  return db
    .selectFrom("postRevisions as r")
    .leftJoin("users as u", "u.id", "r.authorId")
    .select(["r.id", "r.kind", "r.scheduledFor", "r.status", "u.name as authorName", "r.createdAt", "r.updatedAt"])
    .where("r.postId", "=", postId)
    .orderBy("r.createdAt", "desc")
    .orderBy("r.id", "desc")
    .execute();
}

/** One revision of the post, or null. */
export async function getRevision(db: DB, postId: string, id: string): Promise<Revision | null> {
  const row = await db
    .selectFrom("postRevisions as r")
    .leftJoin("users as u", "u.id", "r.authorId")
    .select([
      "r.id",
      "r.postId",
      "r.kind",
      "r.scheduledFor",
      "r.status",
      "u.name as authorName",
      "r.createdAt",
      "r.updatedAt",
      "r.slug",
      "r.publishedAt",
      "r.categoryId",
      "r.tags",
      "r.coverImageUrl",
      "r.coverAlt",
      "r.translations",
      "r.seriesId",
      "r.seriesPosition",
    ])
    .where("r.postId", "=", postId)
    .where("r.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    postId: row.postId,
    kind: row.kind,
    scheduledFor: row.scheduledFor,
    status: row.status,
    authorName: row.authorName,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    content: {
      status: row.status,
      slug: row.slug,
      publishedAt: row.publishedAt,
      categoryId: row.categoryId,
      tags: tagsOf(row.tags),
      coverImageUrl: row.coverImageUrl,
      coverAlt: row.coverAlt,
      seriesId: row.seriesId,
      seriesPosition: row.seriesPosition === null ? null : Number(row.seriesPosition),
      translations: translationsOf(row.translations),
    },
  };
}

/** The changes to the live post readers do not see yet: its newest revision when that is pending. */
export async function pendingRevision(db: DB, postId: string): Promise<Revision | null> {
  const latest = await db
    .selectFrom("postRevisions")
    .select(["id", "kind"])
    .where("postId", "=", postId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return latest?.kind === "pending" ? getRevision(db, postId, latest.id) : null;
}
