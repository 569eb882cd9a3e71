import type { Locale } from "../../lib/i18n/locale.ts";
import { MarkdownTooDeep, withinNesting } from "../../lib/markdown-depth.ts";
import { COMMENT_MAX_LENGTH, COMMENT_MAX_LINKS } from "../../lib/schemas/comment.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { reusableQuery } from "../db/reusable-query.server.ts";
import type { CommentStatus } from "../db/schema.server.ts";
import { blockedSql } from "../federation/inbound-store.server.ts";
import { LIMITS, type Limit, scaled } from "../http/rate-limit.server.ts";
import { rememberLocale } from "../notify/notification-prefs.server.ts";
import { newId } from "../platform/ids.server.ts";
import { displayName } from "../posts/post-detail.server.ts";
import { wherePublic } from "../posts/post-visibility.server.ts";
import type { CommentModeration } from "../site/site-settings.server.ts";
import {
  type CommentRenderer,
  CommentTooComplex,
  inProcessCommentRenderer,
  type RenderedComment,
} from "./comment-renderer.server.ts";

export interface CommentView {
  id: string;
  parentId: string | null;
  authorId: string | null;
  /** The author's name or e-mail local part (an imported comment's given name); null once the account is gone. */
  authorName: string | null;
  bodyHtml: string;
  /** Only approved comments and the reader's own pending ones are ever listed. */
  status: "approved" | "pending";
  createdAt: string;
  /** A reply from the Fediverse: its author's handle (@user@server) and the note's address. */
  remote: { handle: string; url: string } | null;
  replies: CommentView[];
}

/** A post's comments a reader may see (see `listComments`); `viewerId` is "" for an anonymous reader. */
function commentRowsQuery(signedIn: boolean) {
  return reusableQuery(["postId", "viewerId"], (db, v: { postId: string; viewerId: string }) =>
    db
      .selectFrom("comments as c")
      .leftJoin("users as u", "u.id", "c.authorId")
      .leftJoin("federationRemoteActors as ra", "ra.uri", "c.remoteActorUri")
      .where("c.postId", "=", v.postId)
      // Replies from a blocked Fediverse account or server are hidden (decision 023).
      .where((eb) => eb.or([eb("c.remoteActorUri", "is", null), eb.not(blockedSql("ra.uri", "ra.server"))]))
      .where((eb) =>
        signedIn
          ? eb.or([
              eb("c.status", "=", "approved"),
              eb.and([eb("c.status", "=", "pending"), eb("c.authorId", "=", v.viewerId)]),
            ])
          : eb("c.status", "=", "approved"),
      )
      .select([
        "c.id",
        "c.parentId",
        "c.authorId",
        "c.bodyHtml",
        "c.status",
        "c.createdAt",
        "c.guestName",
        "u.name as authorName",
        "c.remoteUrl",
        "ra.handle as remoteHandle",
      ])
      .orderBy("c.createdAt", "asc")
      .orderBy("c.id", "asc"),
  );
}

/** The two shapes of the comments query: a signed-in reader also sees their own pending comments. */
export const COMMENT_QUERIES = { anonymous: commentRowsQuery(false), signedIn: commentRowsQuery(true) };

/**
 * The comments of a post a reader sees, oldest first, replies under their
 * top-level comment: approved ones, and the reader's own pending ones. One query.
 * Replies whose parent the reader cannot see are left out with it.
 */
export async function listComments(db: DB, postId: string, viewerId: string | null): Promise<CommentView[]> {
  const rows = viewerId
    ? await COMMENT_QUERIES.signedIn.execute(db, { postId, viewerId })
    : await COMMENT_QUERIES.anonymous.execute(db, { postId, viewerId: "" });

  const top: CommentView[] = [];
  const byId = new Map<string, CommentView>();
  for (const r of rows) {
    const view: CommentView = {
      id: r.id,
      parentId: r.parentId,
      authorId: r.authorId,
      // An imported comment (WordPress) keeps the name its writer gave there.
      authorName: r.authorId ? displayName(r.authorName) : r.guestName?.trim() || null,
      bodyHtml: r.bodyHtml,
      status: r.status === "pending" ? "pending" : "approved",
      createdAt: r.createdAt,
      remote: r.remoteHandle && r.remoteUrl ? { handle: r.remoteHandle, url: r.remoteUrl } : null,
      replies: [],
    };
    if (r.parentId === null) {
      top.push(view);
      byId.set(view.id, view);
    } else {
      byId.get(r.parentId)?.replies.push(view);
    }
  }
  return top;
}

export type CommentError =
  | "bodyRequired"
  | "bodyTooLong"
  | "tooDeep"
  | "tooManyLinks"
  | "tooComplex"
  | "postNotOpen"
  | "parentNotFound";

export type SubmitCommentResult =
  | {
      ok: true /** Null when nothing was stored (the honeypot was filled). */;
      id: string | null;
      status: CommentStatus;
    }
  | { ok: false; error: CommentError };

export interface SubmitCommentInput {
  postId: string;
  authorId: string;
  body: string;
  /** The comment replied to; a reply to a reply attaches to its top-level comment. */
  parentId?: string | null;
  /** The form's hidden field: filled by bots only. */
  honeypot?: string | null;
  moderation: CommentModeration;
  /** Admins' comments skip the review queue. */
  trusted?: boolean;
  /** The language the author is writing in: remembered for the mail they get later. */
  locale?: Locale;
}

/** A comment just stored, as the code that mails about it sees it. */
export interface StoredComment {
  id: string;
  postId: string;
  parentId: string | null;
  status: CommentStatus;
}

/**
 * What happens with a new comment inside the transaction that stores it: the mail
 * it causes (a reply notification, a moderation notice) commits with it or not at all.
 */
export type CommentStoredHook = (trx: DB, comment: StoredComment) => Promise<void>;

/**
 * Validates and stores a comment or reply: at most 5000 characters and 3 links,
 * only on a published post that is not in the trash, one level of replies.
 * A filled honeypot answers like success and stores nothing. Held comments are
 * `pending` (visible to their author only) until an admin approves them.
 */
export async function submitComment(
  db: DB,
  input: SubmitCommentInput,
  renderer: CommentRenderer = inProcessCommentRenderer,
  onStored?: CommentStoredHook,
): Promise<SubmitCommentResult> {
  const body = input.body.trim();
  if (!body) return { ok: false, error: "bodyRequired" };
  if (body.length > COMMENT_MAX_LENGTH) return { ok: false, error: "bodyTooLong" };
  // Before the parser sees it: deep nesting overflows its stack.
  if (!withinNesting(body)) return { ok: false, error: "tooDeep" };
  // Parsed once, off the request thread: the links are counted on the very HTML that is stored.
  let rendered: RenderedComment;
  try {
    rendered = await renderer.render(body);
  } catch (error) {
    if (error instanceof CommentTooComplex) return { ok: false, error: "tooComplex" };
    if (error instanceof MarkdownTooDeep) return { ok: false, error: "tooDeep" };
    throw error;
  }
  if (rendered.links > COMMENT_MAX_LINKS) return { ok: false, error: "tooManyLinks" };
  const status: CommentStatus = input.moderation === "hold" && !input.trusted ? "pending" : "approved";
  if (input.honeypot) return { ok: true, id: null, status };

  const post = await db
    .selectFrom("posts")
    .select("id")
    .where("id", "=", input.postId)
    .where(wherePublic())
    .executeTakeFirst();
  if (!post) return { ok: false, error: "postNotOpen" };

  let parentId: string | null = null;
  if (input.parentId) {
    // The parent must be on this post and visible to the replier.
    const parent = await db
      .selectFrom("comments")
      .select(["id", "parentId"])
      .where("id", "=", input.parentId)
      .where("postId", "=", input.postId)
      .where((eb) =>
        eb.or([
          eb("status", "=", "approved"),
          eb.and([eb("status", "=", "pending"), eb("authorId", "=", input.authorId)]),
        ]),
      )
      .executeTakeFirst();
    if (!parent) return { ok: false, error: "parentNotFound" };
    parentId = parent.parentId ?? parent.id;
  }

  const id = newId();
  const now = nowIso();
  try {
    // The row, the author's language and the mail it causes: all or nothing.
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("comments")
        .values({
          id,
          postId: input.postId,
          authorId: input.authorId,
          parentId,
          bodyMarkdown: body,
          bodyHtml: rendered.html,
          status,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      if (input.locale) await rememberLocale(trx, input.authorId, input.locale);
      await onStored?.(trx, { id, postId: input.postId, parentId, status });
    });
  } catch (error) {
    // The parent (or post) was deleted a moment ago: the foreign key refused the row.
    if (parentId) {
      const still = await db.selectFrom("comments").select("id").where("id", "=", parentId).executeTakeFirst();
      if (!still) return { ok: false, error: "parentNotFound" };
    }
    throw error;
  }
  return { ok: true, id, status };
}

/**
 * Deletes a comment of this post: the reader's own, or any when `isAdmin`.
 * Ownership is part of the WHERE clause. Its replies go with it (foreign key
 * cascade). False when nothing matched (unknown, another's, another post's).
 */
export async function deleteComment(
  db: DB,
  input: { postId: string; commentId: string; userId: string; isAdmin: boolean },
): Promise<boolean> {
  let query = db.deleteFrom("comments").where("id", "=", input.commentId).where("postId", "=", input.postId);
  if (!input.isAdmin) query = query.where("authorId", "=", input.userId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The per-account limits on new comments (scaled by RATE_LIMIT_MULTIPLIER). */
export function commentLimitChecks(userId: string, multiplier = 1): Array<{ key: string; limit: Limit }> {
  return [
    { key: `comment:min:${userId}`, limit: scaled(LIMITS.commentPerUserMinute, multiplier) },
    { key: `comment:hour:${userId}`, limit: scaled(LIMITS.commentPerUserHour, multiplier) },
  ];
}
