import { createHash, randomBytes } from "node:crypto";
import { PREVIEW_HOURS } from "../../lib/preview-links.ts";
import { slugify } from "../../lib/slug.ts";
import { audit } from "../admin/audit.server.ts";
import type { DB } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { mediaImages } from "../media/media.server.ts";
import { newId } from "../platform/ids.server.ts";
import { renderPost } from "../render/post-render.server.ts";
import { termName } from "../taxonomy/taxonomy.server.ts";
import { userActor } from "./lifecycle.server.ts";
import { type EditingUser, editableBy } from "./post-access.server.ts";
import { findPostDetail, type PostDetail } from "./post-detail.server.ts";
import { pendingRevision } from "./revisions.server.ts";

// Private preview links (issue 23): a secret link to a draft, or to a live post's pending
// changes, for people without an account. Only the token's SHA-256 is stored; the link
// works until it expires or is revoked, then it is a 404 like any unknown address.

export interface PreviewLinkRow {
  id: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export function hashPreviewToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A token as links carry it: 43 characters of base64url (256 random bits). */
export function isPreviewToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

async function mayEdit(db: DB, postId: string, user: EditingUser): Promise<boolean> {
  const row = await db
    .selectFrom("posts")
    .select("id")
    .where("id", "=", postId)
    .where(editableBy(user))
    .where("deletedAt", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A new preview link of post `postId`, valid for `hours` (1 to 720); the token is returned
 * once and never stored. Null when `user` may not edit the post. Recorded in the audit log.
 */
export async function createPreviewLink(
  db: DB,
  opts: { postId: string; user: EditingUser; hours: number; now?: Date },
): Promise<{ id: string; token: string; expiresAt: string } | null> {
  if (!Number.isInteger(opts.hours) || opts.hours < PREVIEW_HOURS.min || opts.hours > PREVIEW_HOURS.max)
    throw new RangeError(`preview links last ${PREVIEW_HOURS.min} to ${PREVIEW_HOURS.max} hours`);
  if (!(await mayEdit(db, opts.postId, opts.user))) return null;
  const actor = await userActor(db, opts.user.id);
  const now = opts.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const id = newId();
  const expiresAt = new Date(now.getTime() + opts.hours * 3_600_000).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("previewLinks")
      .values({
        id,
        postId: opts.postId,
        tokenHash: hashPreviewToken(token),
        createdBy: opts.user.id,
        expiresAt,
        revokedAt: null,
        createdAt: now.toISOString(),
      })
      .execute();
    await audit(trx, actor, "post.previewLink", { type: "post", id: opts.postId }, { previewLinkId: id, expiresAt });
  });
  return { id, token, expiresAt };
}

/** The post's preview links that still work, soonest to expire first. */
export async function listPreviewLinks(db: DB, postId: string, now = new Date()): Promise<PreviewLinkRow[]> {
  return db
    .selectFrom("previewLinks")
    .select(["id", "createdAt", "expiresAt", "revokedAt"])
    .where("postId", "=", postId)
    .where("revokedAt", "is", null)
    .where("expiresAt", ">", now.toISOString())
    .orderBy("expiresAt", "asc")
    .execute();
}

/** Revokes a link of a post `user` may edit; false when there was no such working link. */
export async function revokePreviewLink(
  db: DB,
  opts: { postId: string; user: EditingUser; id: string; now?: Date },
): Promise<boolean> {
  if (!(await mayEdit(db, opts.postId, opts.user))) return false;
  const actor = await userActor(db, opts.user.id);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("previewLinks")
      .set({ revokedAt: (opts.now ?? new Date()).toISOString() })
      .where("id", "=", opts.id)
      .where("postId", "=", opts.postId)
      .where("revokedAt", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await audit(trx, actor, "post.previewLinkRevoke", { type: "post", id: opts.postId }, { previewLinkId: opts.id });
    return true;
  });
}

/** The post a token opens, or null when it is unknown, revoked, expired, or the post is in the trash. */
export async function postOfPreviewToken(db: DB, token: string, now = new Date()): Promise<string | null> {
  if (!isPreviewToken(token)) return null;
  const row = await db
    .selectFrom("previewLinks as l")
    .innerJoin("posts as p", "p.id", "l.postId")
    .select("l.postId")
    .where("l.tokenHash", "=", hashPreviewToken(token))
    .where("l.revokedAt", "is", null)
    .where("l.expiresAt", ">", now.toISOString())
    .where("p.deletedAt", "is", null)
    .executeTakeFirst();
  return row?.postId ?? null;
}

/**
 * The post as it will look: the stored post, or for a live post with pending changes, those
 * changes (rendered now: revisions keep Markdown only) in the reader's language or the other.
 */
export async function previewPost(db: DB, postId: string, locale: Locale): Promise<PostDetail | null> {
  const base = await findPostDetail(db, postId, locale);
  if (!base) return null;
  const pending = base.status === "published" ? await pendingRevision(db, postId) : null;
  if (!pending) return base;
  const content = pending.content;
  const other: Locale = locale === "en" ? "zh" : "en";
  const shown: Locale | null = content.translations[locale] ? locale : content.translations[other] ? other : null;
  const t = shown ? content.translations[shown] : undefined;
  if (!shown || !t) return base;
  const [out, category] = await Promise.all([
    renderPost(t.bodyMarkdown, shown, { media: (ids) => mediaImages(db, ids) }),
    content.categoryId
      ? db
          .selectFrom("categories")
          .select(["slug", "nameEn", "nameZh"])
          .where("id", "=", content.categoryId)
          .executeTakeFirst()
      : undefined,
  ]);
  return {
    ...base,
    slug: content.slug,
    coverImageUrl: content.coverImageUrl,
    coverAlt: content.coverAlt,
    category: category ? { slug: category.slug, name: termName(category, locale) } : null,
    seriesId: content.seriesId,
    tags: content.tags.map((name) => ({ slug: slugify(name) || name, name })),
    translation: {
      locale: shown,
      title: t.title,
      summary: t.summary,
      bodyHtml: out.html,
      toc: out.toc,
      readingMinutes: out.readingMinutes,
      seoTitle: t.seoTitle,
      seoDescription: t.seoDescription,
      // A preview shows pending changes as written: no out-of-date mark.
      outdated: false,
    },
    isFallback: shown !== locale,
    locales: (["en", "zh"] as const).filter((l) => content.translations[l] !== undefined),
  };
}
