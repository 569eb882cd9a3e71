import { sql } from "kysely";
import type { CommentSort, CommentTab } from "../../lib/admin-content.ts";
import { pickTitle } from "../../lib/admin-content.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { clampPage } from "../db/paging.server.ts";
import { type CountValue, countRows, likePattern } from "../db/query.server.ts";
import type { CommentStatus } from "../db/schema.server.ts";

// The admin's moderation queue: every comment on every post (trashed posts too),
// newest first, by status; status changes and deletes of chosen ids only.

/** How many characters of a comment's text the list shows. */
export const EXCERPT_LENGTH = 200;

/** At most this many comments per bulk action (a page of the list is smaller). */
export const MAX_BULK = 100;

export interface ModerationItem {
  id: string;
  postId: string;
  postTitle: string;
  /** False when the post is not publicly visible (draft, scheduled, trashed). */
  postPublic: boolean;
  authorId: string | null;
  /** Null once the author's account is gone. */
  authorEmail: string | null;
  /** The name the author shows on the site; null once the account is gone. */
  authorName: string | null;
  excerpt: string;
  status: CommentStatus;
  createdAt: string;
  /** A reply from the Fediverse: its author (to block it) and handle; null for other comments. */
  remote: { actorUri: string; handle: string; url: string | null } | null;
}

export interface ModerationPage {
  items: ModerationItem[];
  total: number;
  page: number;
  pageCount: number;
  counts: Record<CommentTab, number>;
}

/** A plain-text excerpt of a comment's Markdown: whitespace collapsed, cut at `length`. */
export function excerpt(markdown: string, length = EXCERPT_LENGTH): string {
  const text = markdown.replace(/\s+/g, " ").trim();
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

export async function moderationCounts(db: DB): Promise<Record<CommentTab, number>> {
  const rows = await db
    .selectFrom("comments")
    .groupBy("status")
    .select(["status", (eb) => eb.fn.countAll<CountValue>().as("n")])
    .execute();
  const counts: Record<CommentTab, number> = { pending: 0, approved: 0, hidden: 0, spam: 0, all: 0 };
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    counts.all += Number(r.n);
  }
  return counts;
}

/** How many comments wait for moderation: one COUNT along the comments(status, createdAt) index. */
export async function pendingCommentCount(db: DB): Promise<number> {
  return countRows(db.selectFrom("comments").select("id").where("status", "=", "pending"));
}

/** One page of comments of a status ("all" = any), newest first. */
export async function listCommentsForModeration(
  db: DB,
  opts: { status: CommentTab; page: number; pageSize: number; locale: Locale; q?: string; sort?: CommentSort },
): Promise<ModerationPage> {
  const counts = await moderationCounts(db);
  const q = opts.q?.trim() ?? "";
  const like = likePattern(q);
  // A search matches the comment's text or its author's e-mail (an imported comment's given one); % and _ are literal.
  const filtered = db
    .selectFrom("comments as c")
    .innerJoin("posts as p", "p.id", "c.postId")
    .leftJoin("users as u", "u.id", "c.authorId")
    .$if(opts.status !== "all", (qb) => qb.where("c.status", "=", opts.status as CommentStatus))
    .$if(q !== "", (qb) =>
      qb.where(
        sql<boolean>`(lower(c."bodyMarkdown") like ${like} escape '\\' or lower(coalesce(u."email", c."guestEmail", '')) like ${like} escape '\\')`,
      ),
    );
  const total = q ? await countRows(filtered) : counts[opts.status];
  const { page, pageCount } = clampPage(total, opts.page, opts.pageSize);
  const direction = opts.sort === "oldest" ? "asc" : "desc";
  const rows = await filtered
    .leftJoin("postTranslations as en", (j) => j.onRef("en.postId", "=", "p.id").on("en.locale", "=", "en"))
    .leftJoin("postTranslations as zh", (j) => j.onRef("zh.postId", "=", "p.id").on("zh.locale", "=", "zh"))
    .leftJoin("federationRemoteActors as ra", "ra.uri", "c.remoteActorUri")
    .select([
      "c.id",
      "c.postId",
      "c.authorId",
      "c.bodyMarkdown",
      "c.status",
      "c.createdAt",
      "p.status as postStatus",
      "p.deletedAt as postDeletedAt",
      "en.title as titleEn",
      "zh.title as titleZh",
      "u.email as authorEmail",
      "u.name as authorName",
      "c.guestName",
      "c.guestEmail",
      "c.remoteActorUri",
      "c.remoteUrl",
      "ra.handle as remoteHandle",
    ])
    .orderBy("c.createdAt", direction)
    .orderBy("c.id", direction)
    .limit(opts.pageSize)
    .offset((page - 1) * opts.pageSize)
    .execute();
  return {
    items: rows.map((r) => ({
      id: r.id,
      postId: r.postId,
      postTitle: pickTitle(r.titleEn, r.titleZh, opts.locale),
      postPublic: r.postStatus === "published" && r.postDeletedAt === null,
      authorId: r.authorId,
      authorEmail: r.authorEmail ?? r.guestEmail,
      authorName: r.authorName?.trim() || r.guestName?.trim() || null,
      excerpt: excerpt(r.bodyMarkdown),
      status: r.status,
      createdAt: r.createdAt,
      remote: r.remoteActorUri
        ? { actorUri: r.remoteActorUri, handle: r.remoteHandle ?? r.remoteActorUri, url: r.remoteUrl }
        : null,
    })),
    total,
    page,
    pageCount,
    counts,
  };
}

export interface ModerationRef {
  id: string;
  postId: string;
  status: CommentStatus;
  authorEmail: string | null;
  excerpt: string;
}

/** The comments among `ids` that exist (unknown ids are left out), for audit and confirmation. */
export async function getCommentsForModeration(db: DB, ids: readonly string[]): Promise<ModerationRef[]> {
  const unique = [...new Set(ids)].slice(0, MAX_BULK);
  if (unique.length === 0) return [];
  const rows = await db
    .selectFrom("comments as c")
    .leftJoin("users as u", "u.id", "c.authorId")
    .select(["c.id", "c.postId", "c.status", "c.bodyMarkdown", "u.email as authorEmail"])
    .where("c.id", "in", unique)
    .orderBy("c.createdAt", "desc")
    .execute();
  return rows.map(({ bodyMarkdown, ...r }) => ({ ...r, excerpt: excerpt(bodyMarkdown, 80) }));
}

/** Sets the status of exactly the comments `ids`; returns how many changed. */
export async function setCommentStatus(db: DB, ids: readonly string[], status: CommentStatus): Promise<number> {
  const unique = [...new Set(ids)].slice(0, MAX_BULK);
  if (unique.length === 0) return 0;
  const result = await db
    .updateTable("comments")
    .set({ status, updatedAt: nowIso() })
    .where("id", "in", unique)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes exactly the comments `ids` (their replies go with them); returns how many rows went. */
export async function deleteComments(db: DB, ids: readonly string[]): Promise<number> {
  const unique = [...new Set(ids)].slice(0, MAX_BULK);
  if (unique.length === 0) return 0;
  const result = await db.deleteFrom("comments").where("id", "in", unique).executeTakeFirst();
  return Number(result.numDeletedRows);
}
