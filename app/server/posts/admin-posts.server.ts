import { sql } from "kysely";
import { ADMIN_POST_SORTS, type AdminPostSort, oneOf, pickTitle } from "../../lib/admin-content.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { DB } from "../db/db.server.ts";
import { clampPage } from "../db/paging.server.ts";
import { countRows, likePattern } from "../db/query.server.ts";
import type { PostStatus } from "../db/schema.server.ts";
import { type LifecycleActor, withPostLifecycle } from "./lifecycle.server.ts";
import { canEditPost, type EditingUser } from "./post-access.server.ts";
import { displayName } from "./post-detail.server.ts";

// The admin's view of every post of every author: list, filters, trash, and the
// state changes the list offers. Each change bumps `version` (the editor's
// optimistic concurrency) and `updatedAt`, and runs in the post lifecycle.

export interface AdminPostFilter {
  q?: string;
  status?: PostStatus | null;
  categoryId?: string | null;
  tagId?: string | null;
  authorId?: string | null;
  /** The trash (deletedAt set) instead of the live posts. */
  trash?: boolean;
  sort?: string;
  page: number;
  pageSize: number;
  locale: Locale;
}

export interface AdminPostItem {
  id: string;
  slug: string;
  status: PostStatus;
  title: string;
  authorId: string | null;
  /** The name readers see on the byline (null: the author has none, or the account is gone). Never an e-mail address. */
  authorName: string | null;
  categoryId: string | null;
  featured: boolean;
  viewCount: number;
  publishedAt: string | null;
  updatedAt: string;
  deletedAt: string | null;
  version: number;
  /** The languages it is written in (a translation with a title), English first. */
  languages: Locale[];
  /** Its language versions out of date: written before the other language's last change (issue 47). */
  outdated: Locale[];
}

export interface AdminPostPage {
  items: AdminPostItem[];
  total: number;
  page: number;
  pageCount: number;
  sort: AdminPostSort;
}

/** Every author with at least one post (live or trashed), for the filter, by the name readers see. */
export async function listPostAuthors(db: DB): Promise<Array<{ id: string; name: string | null }>> {
  const rows = await db
    .selectFrom("users as u")
    .select(["u.id", "u.name"])
    .where((eb) => eb.exists(eb.selectFrom("posts as p").select("p.id").whereRef("p.authorId", "=", "u.id")))
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: displayName(r.name) }));
}

/**
 * One page of posts for the admin list: search over both titles and the slug,
 * filters, a sort from the allowlist. Two queries: the page and the total.
 */
export async function listPostsForAdmin(db: DB, opts: AdminPostFilter): Promise<AdminPostPage> {
  const q = opts.q?.trim() ?? "";
  const sort = oneOf(ADMIN_POST_SORTS, opts.sort) ?? "updated";
  const like = likePattern(q);
  const base = () => {
    let query = db
      .selectFrom("posts as p")
      .where("p.deletedAt", opts.trash ? "is not" : "is", null)
      .$if(Boolean(opts.status), (qb) => qb.where("p.status", "=", opts.status as PostStatus))
      .$if(Boolean(opts.categoryId), (qb) => qb.where("p.categoryId", "=", opts.categoryId as string))
      .$if(Boolean(opts.authorId), (qb) => qb.where("p.authorId", "=", opts.authorId as string))
      .$if(Boolean(opts.tagId), (qb) =>
        qb.where((eb) =>
          eb.exists(
            eb
              .selectFrom("postTags as pt")
              .select("pt.postId")
              .whereRef("pt.postId", "=", "p.id")
              .where("pt.tagId", "=", opts.tagId as string),
          ),
        ),
      );
    if (q !== "") {
      query = query.where(
        sql<boolean>`(p."slug" like ${like} escape '\\' or exists (select 1 from "postTranslations" s where s."postId" = p."id" and lower(s."title") like ${like} escape '\\'))`,
      );
    }
    return query;
  };

  const total = await countRows(base());
  const { page, pageCount } = clampPage(total, opts.page, opts.pageSize);

  const titleExpr =
    opts.locale === "en" ? sql`lower(coalesce(en."title", zh."title"))` : sql`lower(coalesce(zh."title", en."title"))`;
  const order = {
    updated: [sql`p."updatedAt" desc`],
    // Unpublished posts (no time) last, on both dialects.
    published: [sql`(case when p."publishedAt" is null then 1 else 0 end) asc`, sql`p."publishedAt" desc`],
    title: [sql`${titleExpr} asc`],
    views: [sql`p."viewCount" desc`],
  }[sort];

  let listQuery = base()
    .leftJoin("postTranslations as en", (j) => j.onRef("en.postId", "=", "p.id").on("en.locale", "=", "en"))
    .leftJoin("postTranslations as zh", (j) => j.onRef("zh.postId", "=", "p.id").on("zh.locale", "=", "zh"))
    .leftJoin("users as u", "u.id", "p.authorId")
    .select([
      "p.id",
      "p.slug",
      "p.status",
      "p.authorId",
      "p.categoryId",
      "p.featured",
      "p.viewCount",
      "p.publishedAt",
      "p.updatedAt",
      "p.deletedAt",
      "p.version",
      "en.title as titleEn",
      "zh.title as titleZh",
      "en.outdatedSince as outdatedEn",
      "zh.outdatedSince as outdatedZh",
      "u.name as authorName",
    ]);
  for (const o of order) listQuery = listQuery.orderBy(o);
  const rows = await listQuery
    .orderBy("p.id", "desc")
    .limit(opts.pageSize)
    .offset((page - 1) * opts.pageSize)
    .execute();

  return {
    items: rows.map(({ titleEn, titleZh, outdatedEn, outdatedZh, ...r }) => ({
      ...r,
      languages: [...(titleEn !== null ? (["en"] as const) : []), ...(titleZh !== null ? (["zh"] as const) : [])],
      outdated: [...(outdatedEn ? (["en"] as const) : []), ...(outdatedZh ? (["zh"] as const) : [])],
      authorName: displayName(r.authorName),
      title: pickTitle(titleEn, titleZh, opts.locale),
      featured: Number(r.featured) === 1,
      viewCount: Number(r.viewCount),
      version: Number(r.version),
    })),
    total,
    page,
    pageCount,
    sort,
  };
}

export interface AdminPostRef {
  id: string;
  slug: string;
  status: PostStatus;
  authorId: string | null;
  title: string;
  featured: boolean;
  publishedAt: string | null;
  deletedAt: string | null;
  version: number;
}

/** One post (live or trashed) with its title, or undefined. */
export async function getAdminPost(db: DB, id: string, locale: Locale = "en"): Promise<AdminPostRef | undefined> {
  const row = await db
    .selectFrom("posts as p")
    .leftJoin("postTranslations as en", (j) => j.onRef("en.postId", "=", "p.id").on("en.locale", "=", "en"))
    .leftJoin("postTranslations as zh", (j) => j.onRef("zh.postId", "=", "p.id").on("zh.locale", "=", "zh"))
    .select([
      "p.id",
      "p.slug",
      "p.status",
      "p.authorId",
      "p.featured",
      "p.publishedAt",
      "p.deletedAt",
      "p.version",
      "en.title as titleEn",
      "zh.title as titleZh",
    ])
    .where("p.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { titleEn, titleZh, ...rest } = row;
  return {
    ...rest,
    title: pickTitle(titleEn, titleZh, locale),
    featured: Number(rest.featured) === 1,
    version: Number(rest.version),
  };
}

export type PostChange =
  | { kind: "publish" }
  | { kind: "unpublish" }
  | { kind: "schedule"; at: string }
  | { kind: "feature"; featured: boolean }
  | { kind: "trash" }
  | { kind: "restore" };

/**
 * Applies one admin change to a post in the post lifecycle (which writes the status, starts a
 * newsletter, writes the audit entry as `actor` and drops the pages), bumping its version and
 * updatedAt. Live posts only, except `restore` (trashed only). Publishing keeps an earlier
 * publish time and sets now otherwise. False when nothing matched.
 */
export async function changePost(
  db: DB,
  actor: LifecycleActor,
  id: string,
  change: PostChange,
  now?: string,
): Promise<boolean> {
  return withPostLifecycle(
    db,
    actor,
    async (life) => {
      switch (change.kind) {
        case "publish":
          return life.setStatus(id, "published", { publishedAt: "now-or-earlier", bump: true });
        case "unpublish":
          return life.setStatus(id, "draft", { bump: true });
        case "schedule":
          return life.setStatus(id, "scheduled", { publishedAt: change.at, bump: true, details: { at: change.at } });
      }
      const result = await life.trx
        .updateTable("posts")
        .set((eb) => ({
          updatedAt: life.now,
          version: eb("version", "+", 1),
          ...(change.kind === "feature" ? { featured: change.featured ? 1 : 0 } : {}),
          ...(change.kind === "trash" ? { deletedAt: life.now } : {}),
          ...(change.kind === "restore" ? { deletedAt: null } : {}),
        }))
        .where("id", "=", id)
        .where("deletedAt", change.kind === "restore" ? "is not" : "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      const event = change.kind === "feature" ? (change.featured ? "feature" : "unfeature") : change.kind;
      await life.record(id, event);
      return true;
    },
    now ? { now: new Date(now) } : {},
  );
}

/** Deletes a trashed post for good (translations, tags, comments go with it). False unless it was in the trash. */
export async function purgePost(db: DB, actor: LifecycleActor, id: string): Promise<boolean> {
  return withPostLifecycle(db, actor, async (life) => {
    const trashed = await life.trx
      .selectFrom("posts")
      .select("id")
      .where("id", "=", id)
      .where("deletedAt", "is not", null)
      .executeTakeFirst();
    if (!trashed) return false;
    // Recorded first: the audit entry names the post by its title and slug.
    await life.record(id, "purge");
    await life.trx.deleteFrom("posts").where("id", "=", id).execute();
    return true;
  });
}

/** Every tag, by slug, for the list's filter. */
export async function listTagOptions(
  db: DB,
): Promise<Array<{ id: string; slug: string; nameEn: string; nameZh: string }>> {
  return db.selectFrom("tags").select(["id", "slug", "nameEn", "nameZh"]).orderBy("slug").execute();
}

/** The changes the list applies to many posts at once. */
export const BULK_POST_ACTIONS = ["publish", "unpublish", "category", "trash"] as const;

export type BulkPostChange =
  | { kind: "publish" }
  | { kind: "unpublish" }
  | { kind: "trash" }
  | { kind: "category"; categoryId: string };

/** Why a bulk change wrote nothing. */
export type BulkRefusal = "notFound" | "noCategory";

/**
 * Applies one change to every post in `ids`, all or none, in one post lifecycle (each post's
 * status, audit entry and newsletter as for a single change). Every post must exist, be out
 * of the trash and be one `user` may edit (`canEditPost`); otherwise nothing is written and
 * the refusal says why. A post already in the wanted state is left alone (no new audit entry).
 * Returns how many posts changed.
 */
export async function bulkChangePosts(
  db: DB,
  actor: LifecycleActor,
  user: EditingUser,
  ids: readonly string[],
  change: BulkPostChange,
): Promise<{ changed: number } | { refused: BulkRefusal }> {
  const unique = [...new Set(ids)];
  return withPostLifecycle(db, actor, async (life) => {
    const rows = await life.trx
      .selectFrom("posts")
      .select(["id", "authorId", "status", "categoryId"])
      .where("id", "in", unique)
      .where("deletedAt", "is", null)
      .execute();
    // Checked before any write: one post out of reach refuses the whole change.
    if (rows.length !== unique.length || !rows.every((post) => canEditPost(user, post)))
      return { refused: "notFound" as const };
    if (change.kind === "category") {
      const category = await life.trx
        .selectFrom("categories")
        .select("id")
        .where("id", "=", change.categoryId)
        .executeTakeFirst();
      if (!category) return { refused: "noCategory" as const };
    }
    let changed = 0;
    for (const post of rows) {
      if (change.kind === "publish" && post.status !== "published") {
        await life.setStatus(post.id, "published", { publishedAt: "now-or-earlier", bump: true });
      } else if (change.kind === "unpublish" && post.status !== "draft") {
        await life.setStatus(post.id, "draft", { bump: true });
      } else if (change.kind === "trash") {
        await life.trx
          .updateTable("posts")
          .set((eb) => ({ updatedAt: life.now, version: eb("version", "+", 1), deletedAt: life.now }))
          .where("id", "=", post.id)
          .execute();
        await life.record(post.id, "trash");
      } else if (change.kind === "category" && post.categoryId !== change.categoryId) {
        await life.trx
          .updateTable("posts")
          .set((eb) => ({ updatedAt: life.now, version: eb("version", "+", 1), categoryId: change.categoryId }))
          .where("id", "=", post.id)
          .execute();
        await life.record(post.id, "update", { details: { categoryId: change.categoryId } });
      } else {
        continue;
      }
      changed += 1;
    }
    return { changed };
  });
}
