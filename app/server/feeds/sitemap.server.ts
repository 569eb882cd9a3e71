import type { DB } from "../db/db.server.ts";
import { keptPublishedPostCount } from "../posts/posts.server.ts";
import { sitemapData, sitemapPosts, sitemapTerms } from "./discovery.server.ts";
import { buildSitemap, buildSitemapIndex, buildSitemapPages, buildSitemapPosts } from "./feeds.server.ts";

/**
 * Posts per sitemap file once a blog has more than this many: each post is two URLs
 * (one per language), and a file may hold 50,000 URLs and 50 MB. A blog up to this size
 * keeps one `/sitemap.xml`; a larger one gets an index of `/sitemaps/pages.xml` and
 * `/sitemaps/posts-{n}.xml`, so no request reads or renders every post.
 */
export const SITEMAP_POSTS_PER_FILE = 10_000;

export type SitemapPart = { kind: "root" } | { kind: "pages" } | { kind: "posts"; n: number };

/** `pages.xml` or `posts-{n}.xml` (n a plainly written positive integer); anything else is null. */
export function parseSitemapFile(file: string): SitemapPart | null {
  if (file === "pages.xml") return { kind: "pages" };
  const posts = /^posts-([1-9]\d{0,6})\.xml$/.exec(file);
  return posts ? { kind: "posts", n: Number(posts[1]) } : null;
}

/**
 * The XML of `/sitemap.xml` or of one of a large blog's files; null for a file that does
 * not exist (a small blog has none, a number past the last file).
 */
export async function sitemapXml(
  db: DB,
  opts: { part: SitemapPart; publicUrl: string; postsPerPage: number; perFile?: number },
): Promise<string | null> {
  const { part, publicUrl } = opts;
  const perFile = opts.perFile ?? SITEMAP_POSTS_PER_FILE;
  const total = await keptPublishedPostCount(db);
  const listPageCount = Math.max(1, Math.ceil(total / opts.postsPerPage));
  const files = Math.ceil(total / perFile);
  if (total <= perFile) {
    if (part.kind !== "root") return null;
    return buildSitemap({ ...(await sitemapData(db)), publicUrl, listPageCount });
  }
  if (part.kind === "root") {
    const paths = ["/sitemaps/pages.xml", ...Array.from({ length: files }, (_, i) => `/sitemaps/posts-${i + 1}.xml`)];
    return buildSitemapIndex(publicUrl, paths);
  }
  if (part.kind === "pages") return buildSitemapPages({ publicUrl, listPageCount, ...(await sitemapTerms(db)) });
  if (part.n > files) return null;
  return buildSitemapPosts(publicUrl, await sitemapPosts(db, { offset: (part.n - 1) * perFile, limit: perFile }));
}
