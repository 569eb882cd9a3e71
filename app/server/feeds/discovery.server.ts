import { mediaIdFromUrl } from "../../lib/media.ts";
import { categoryOf } from "../../lib/terms.ts";
import type { DB } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { sitemapPages } from "../pages/pages.server.ts";
import { wherePublic } from "../posts/post-visibility.server.ts";
import { type TermRef, tagsOfPosts } from "../posts/posts.server.ts";
import { sitemapSeries } from "../taxonomy/series.server.ts";
import { termName } from "../taxonomy/taxonomy.server.ts";

// Reads for the feeds and the sitemap: published posts that are not in the trash.

export interface FeedPost {
  id: string;
  publishedAt: string;
  /** The later of the post's and this language version's last change. */
  updatedAt: string;
  title: string;
  summary: string;
  /** Sanitized when the post was saved. */
  bodyHtml: string;
  authorName: string | null;
  category: TermRef | null;
  tags: TermRef[];
  /** The series the post is part of (feeds name it as a category with the series page as its domain). */
  series: { slug: string; name: string } | null;
  /** The post's cover image, for the feeds' enclosures; null without one. */
  cover: FeedImage | null;
}

/**
 * An image as a feed names it: its address (site-relative or http(s)), and what is known of
 * it. An upload's type, size and dimensions are in the media table; another address's type is
 * read from its extension, and its size is unknown.
 */
export interface FeedImage {
  url: string;
  type: string | null;
  length: number | null;
  width: number | null;
  height: number | null;
}

const IMAGE_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
};

/** An image's type from its address's extension; null when it has none we know. */
export function imageTypeOf(url: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(url.split(/[?#]/, 1)[0] ?? "")?.[1]?.toLowerCase();
  return (ext && IMAGE_TYPES[ext]) ?? null;
}

/** A cover address fit for a feed (site-relative or http(s)); anything else is no cover. */
function coverUrl(url: string | null): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  return url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\") ? url : null;
}

/** The covers of some posts, with an upload's type, size and dimensions from the media table (one query). */
async function feedCovers(db: DB, urls: ReadonlyArray<string | null>): Promise<Map<string, FeedImage>> {
  const wanted = [...new Set(urls.flatMap((u) => (coverUrl(u) ? [u as string] : [])))];
  const out = new Map<string, FeedImage>();
  for (const url of wanted) out.set(url, { url, type: imageTypeOf(url), length: null, width: null, height: null });
  const ids = wanted.flatMap((u) => mediaIdFromUrl(u) ?? []);
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom("media")
    .select(["name", "size", "contentType", "width", "height"])
    .where("id", "in", ids)
    .execute();
  for (const row of rows) {
    const url = `/media/${row.name}`;
    // Only the main file's own numbers: a cover naming another file of the upload keeps its guesses.
    if (!out.has(url)) continue;
    out.set(url, {
      url,
      type: row.contentType || imageTypeOf(url),
      length: Number(row.size) > 0 ? Number(row.size) : null,
      width: Number(row.width) > 0 ? Number(row.width) : null,
      height: Number(row.height) > 0 ? Number(row.height) : null,
    });
  }
  return out;
}

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * The `limit` latest published posts that have a version in `locale`, in that
 * language (posts written only in the other language are left out), with their
 * category and tags: one query for the posts, one for the tags.
 */
export async function latestPostsInLocale(
  db: DB,
  locale: Locale,
  limit: number,
  filter: { authorId?: string } = {},
): Promise<FeedPost[]> {
  const rows = await db
    .selectFrom("posts as p")
    .innerJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", locale))
    .leftJoin("categories as c", "c.id", "p.categoryId")
    .leftJoin("users as u", "u.id", "p.authorId")
    .leftJoin("series as s", "s.id", "p.seriesId")
    .where(wherePublic("p"))
    .$if(filter.authorId !== undefined, (qb) => qb.where("p.authorId", "=", filter.authorId ?? ""))
    .select([
      "p.id",
      "p.publishedAt",
      "p.createdAt",
      "p.updatedAt as postUpdatedAt",
      "t.updatedAt as translationUpdatedAt",
      "t.title",
      "t.summary",
      "t.bodyHtml",
      "p.coverImageUrl",
      "u.name as authorName",
      "c.id as categoryId",
      "c.slug as categorySlug",
      "c.nameEn as categoryNameEn",
      "c.nameZh as categoryNameZh",
      "s.slug as seriesSlug",
      "s.nameEn as seriesNameEn",
      "s.nameZh as seriesNameZh",
    ])
    .orderBy("p.publishedAt", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
  const [tags, covers] = await Promise.all([
    tagsOfPosts(
      db,
      rows.map((r) => r.id),
      locale,
    ),
    feedCovers(
      db,
      rows.map((r) => r.coverImageUrl),
    ),
  ]);
  return rows.map((r) => ({
    id: r.id,
    publishedAt: r.publishedAt ?? r.createdAt,
    updatedAt: later(r.postUpdatedAt, r.translationUpdatedAt),
    title: r.title,
    summary: r.summary,
    bodyHtml: r.bodyHtml,
    authorName: r.authorName,
    category: categoryOf(r, locale),
    tags: tags.get(r.id) ?? [],
    series:
      r.seriesSlug !== null
        ? {
            slug: r.seriesSlug,
            name: termName({ nameEn: r.seriesNameEn ?? "", nameZh: r.seriesNameZh ?? "" }, locale),
          }
        : null,
    cover: (r.coverImageUrl && covers.get(r.coverImageUrl)) || null,
  }));
}

export interface SitemapData {
  /** Every published post: its language versions and last change. */
  posts: Array<{ id: string; locales: Locale[]; updatedAt: string }>;
  /** Categories and tags with at least one published post, with that post's latest change. */
  categories: Array<{ slug: string; updatedAt: string }>;
  tags: Array<{ slug: string; updatedAt: string }>;
  /** Series with at least one published part, with the latest change of it or its parts. */
  series: Array<{ slug: string; updatedAt: string }>;
  /** People with at least one published post (their author pages), with that post's latest change. */
  authors: Array<{ handle: string; updatedAt: string }>;
  /** Published pages (about, contact, privacy and the owner's own), by address (decision 035). */
  pages: Array<{ slug: string; updatedAt: string }>;
}

interface SitemapPostRow {
  id: string;
  locale: Locale;
  postUpdatedAt: string;
  translationUpdatedAt: string;
}

/** One entry per post, in the rows' order, with its languages and latest change. */
function groupSitemapPosts(rows: readonly SitemapPostRow[]): SitemapData["posts"] {
  const posts = new Map<string, { id: string; locales: Locale[]; updatedAt: string }>();
  for (const r of rows) {
    const entry = posts.get(r.id) ?? { id: r.id, locales: [], updatedAt: r.postUpdatedAt };
    entry.locales.push(r.locale);
    entry.updatedAt = later(entry.updatedAt, r.translationUpdatedAt);
    posts.set(r.id, entry);
  }
  return [...posts.values()];
}

/** What the sitemap lists, in four queries. */
export async function sitemapData(db: DB): Promise<SitemapData> {
  const postRows = await db
    .selectFrom("posts as p")
    .innerJoin("postTranslations as t", "t.postId", "p.id")
    .where(wherePublic("p"))
    .select([
      "p.id",
      "p.publishedAt",
      "p.updatedAt as postUpdatedAt",
      "t.locale",
      "t.updatedAt as translationUpdatedAt",
    ])
    .orderBy("p.publishedAt", "desc")
    .orderBy("p.id", "desc")
    .orderBy("t.locale")
    .execute();
  return { posts: groupSitemapPosts(postRows), ...(await sitemapTerms(db)) };
}

/**
 * One file's worth of published posts for a large blog's sitemap, oldest first, so a
 * new post changes only the last file: the ids from the listing index, then their
 * translations.
 */
export async function sitemapPosts(db: DB, opts: { offset: number; limit: number }): Promise<SitemapData["posts"]> {
  const ids = db
    .selectFrom("posts as p")
    .where(wherePublic("p"))
    .select("p.id")
    .orderBy("p.publishedAt")
    .orderBy("p.id")
    .limit(opts.limit)
    .offset(opts.offset);
  const rows = await db
    .selectFrom("posts as p")
    .innerJoin("postTranslations as t", "t.postId", "p.id")
    .where("p.id", "in", ids)
    .select(["p.id", "p.updatedAt as postUpdatedAt", "t.locale", "t.updatedAt as translationUpdatedAt"])
    .orderBy("p.publishedAt")
    .orderBy("p.id")
    .orderBy("t.locale")
    .execute();
  return groupSitemapPosts(rows);
}

/** Categories and tags with at least one published post, with that post's latest change. */
export async function sitemapTerms(
  db: DB,
): Promise<Pick<SitemapData, "categories" | "tags" | "series" | "authors" | "pages">> {
  const categories = await db
    .selectFrom("categories as c")
    .innerJoin("posts as p", "p.categoryId", "c.id")
    .where(wherePublic("p"))
    .groupBy("c.slug")
    .select(["c.slug", (eb) => eb.fn.max("p.updatedAt").as("updatedAt")])
    .orderBy("c.slug")
    .execute();

  const tags = await db
    .selectFrom("tags as tg")
    .innerJoin("postTags as pt", "pt.tagId", "tg.id")
    .innerJoin("posts as p", "p.id", "pt.postId")
    .where(wherePublic("p"))
    .groupBy("tg.slug")
    .select(["tg.slug", (eb) => eb.fn.max("p.updatedAt").as("updatedAt")])
    .orderBy("tg.slug")
    .execute();

  const authorRows = await db
    .selectFrom("users as u")
    .innerJoin("posts as p", "p.authorId", "u.id")
    .where(wherePublic("p"))
    .where("u.handle", "is not", null)
    .where("u.banned", "=", 0)
    .groupBy("u.handle")
    .select(["u.handle", (eb) => eb.fn.max("p.updatedAt").as("updatedAt")])
    .orderBy("u.handle")
    .execute();
  const authors = authorRows.flatMap((a) => (a.handle ? [{ handle: a.handle, updatedAt: a.updatedAt }] : []));

  return { categories, tags, series: await sitemapSeries(db), authors, pages: await sitemapPages(db) };
}
