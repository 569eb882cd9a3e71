import type { Locale } from "../db/schema.server.ts";
import { withoutControls } from "../render/post-markup.server.ts";
import type { FeedImage, FeedPost, SitemapData } from "./discovery.server.ts";
import { cdata, el, renderXml, type XmlElement } from "./xml.server.ts";

// RSS 2.0, Atom 1.0, the sitemap and robots.txt. Every URL is absolute, from
// PUBLIC_URL; every piece of text goes through the XML writer's escaping.

export const FEED_SIZE = 20;
/** Feeds and the sitemap may be cached by browsers and proxies for a while. */
export const FEED_CACHE_CONTROL = "public, max-age=600, stale-while-revalidate=600";

export interface FeedInput {
  publicUrl: string;
  locale: Locale;
  siteName: string;
  siteDescription: string;
  posts: readonly FeedPost[];
  /**
   * A feed of part of the site (an author's posts): its title, description and the
   * page it belongs to, a path under the language prefix (`/authors/ada`); its own
   * feeds are that path plus `/rss.xml` and `/atom.xml`. Absent: the whole site.
   */
  scope?: { title: string; description: string; path: string };
  /** The site's image (its social image setting: site-relative or http(s)), the feed's logo; null for none. */
  logo?: string | null;
}

/** The site's icon, as the feeds name it (Atom `icon`). */
export const FEED_ICON_PATH = "/favicon.svg";

/** A site-relative address made absolute; an http(s) one as it is. */
export const absolute = (publicUrl: string, url: string) => (url.startsWith("/") ? `${publicUrl}${url}` : url);

/**
 * A post's cover in RSS: an `enclosure` (what most readers and podcatchers read; its length is
 * required, 0 when unknown as the RSS Advisory Board advises) when the image's type is known,
 * and a Media RSS `media:content` with what is known of it.
 */
function rssCover(publicUrl: string, cover: FeedImage | null) {
  if (!cover) return null;
  const url = absolute(publicUrl, cover.url);
  return [
    cover.type && el("enclosure", { url, length: String(cover.length ?? 0), type: cover.type }),
    el("media:content", {
      url,
      medium: "image",
      ...(cover.type ? { type: cover.type } : {}),
      ...(cover.length ? { fileSize: String(cover.length) } : {}),
      ...(cover.width ? { width: String(cover.width) } : {}),
      ...(cover.height ? { height: String(cover.height) } : {}),
    }),
  ];
}

/** A post's cover in Atom: a `link rel="enclosure"` (RFC 4287 §4.2.7.2). */
function atomCover(publicUrl: string, cover: FeedImage | null) {
  if (!cover) return null;
  return el("link", {
    rel: "enclosure",
    href: absolute(publicUrl, cover.url),
    ...(cover.type ? { type: cover.type } : {}),
    ...(cover.length ? { length: String(cover.length) } : {}),
  });
}

export const LANGUAGE_TAG: Record<Locale, string> = { en: "en-US", zh: "zh-CN" };

export const postUrl = (publicUrl: string, locale: Locale, id: string) =>
  `${publicUrl}/${locale}/posts/detail/${encodeURIComponent(id)}`;
export const homeUrl = (publicUrl: string, locale: Locale, path = "") => `${publicUrl}/${locale}${path}`;
/** A series page: feeds point a post's series category at it. */
export const seriesUrl = (publicUrl: string, locale: Locale, slug: string) =>
  `${publicUrl}/${locale}/series/${encodeURIComponent(slug)}`;
/** A feed's own address: `/{locale}{path}/rss.xml`, `…/atom.xml` or `…/feed.json`. */
export const feedUrl = (publicUrl: string, locale: Locale, kind: "rss" | "atom" | "json", path = "") =>
  `${publicUrl}/${locale}${path}/${kind === "json" ? "feed.json" : `${kind}.xml`}`;

/** The feed's title, description and page and feed paths: the site's, or its scope's. */
export function channelOf(feed: FeedInput) {
  return feed.scope
    ? { title: feed.scope.title, description: feed.scope.description, path: feed.scope.path }
    : { title: feed.siteName, description: feed.siteDescription, path: "" };
}

/** RFC 822 date for RSS (`Tue, 20 Nov 2026 08:00:00 GMT`). */
function rfc822(iso: string): string {
  return new Date(iso).toUTCString();
}

/**
 * A post's link as a feed shows it: tagged `?utm_source=feed` so Insights can count readers
 * who come from feeds. Only the link: the guid (RSS) and id (Atom) stay the bare address, so
 * no reader sees old posts as new. The server takes the tag off before rendering and caching.
 */
export function fromFeed(link: string): string {
  return `${link}?utm_source=feed`;
}

/**
 * Site-relative links and images in a post body made absolute: feed readers show
 * the HTML away from the site. The body was sanitized on save; `publicUrl` is
 * escaped for the attribute it goes into.
 */
export function absolutizeUrls(html: string, publicUrl: string): string {
  const base = publicUrl.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
  return html.replace(/(\s(?:href|src))="\/(?!\/)/g, `$1="${base}/`);
}

function latestUpdate(posts: readonly FeedPost[]): string | null {
  let latest: string | null = null;
  for (const p of posts) if (latest === null || p.updatedAt > latest) latest = p.updatedAt;
  return latest;
}

/** Category first, then the tags: the names readers see. */
export const termsOf = (post: FeedPost) => [...(post.category ? [post.category] : []), ...post.tags];

export function buildRss(feed: FeedInput): string {
  const { publicUrl, locale } = feed;
  const updated = latestUpdate(feed.posts);
  const about = channelOf(feed);
  const channel = el(
    "channel",
    {},
    el("title", {}, about.title),
    el("link", {}, homeUrl(publicUrl, locale, about.path)),
    el("description", {}, about.description || about.title),
    el("language", {}, LANGUAGE_TAG[locale]),
    updated !== null && el("lastBuildDate", {}, rfc822(updated)),
    el("generator", {}, "Inkwell"),
    el("atom:link", { href: feedUrl(publicUrl, locale, "rss", about.path), rel: "self", type: "application/rss+xml" }),
    // RSS's image must be a GIF, JPEG or PNG: the site's social image, not the SVG icon.
    feed.logo &&
      el(
        "image",
        {},
        el("url", {}, absolute(publicUrl, feed.logo)),
        el("title", {}, about.title),
        el("link", {}, homeUrl(publicUrl, locale, about.path)),
      ),
    feed.posts.map((post) => {
      const link = postUrl(publicUrl, locale, post.id);
      return el(
        "item",
        {},
        el("title", {}, post.title),
        el("link", {}, fromFeed(link)),
        el("guid", { isPermaLink: "true" }, link),
        el("pubDate", {}, rfc822(post.publishedAt)),
        post.authorName && el("dc:creator", {}, post.authorName),
        termsOf(post).map((term) => el("category", {}, term.name)),
        post.series && el("category", { domain: seriesUrl(publicUrl, locale, post.series.slug) }, post.series.name),
        el("description", {}, post.summary),
        el("content:encoded", {}, cdata(absolutizeUrls(withoutControls(post.bodyHtml), publicUrl))),
        rssCover(publicUrl, post.cover),
      );
    }),
  );
  return renderXml(
    el(
      "rss",
      {
        version: "2.0",
        "xmlns:atom": "http://www.w3.org/2005/Atom",
        "xmlns:content": "http://purl.org/rss/1.0/modules/content/",
        "xmlns:dc": "http://purl.org/dc/elements/1.1/",
        "xmlns:media": "http://search.yahoo.com/mrss/",
      },
      channel,
    ),
  );
}

export function buildAtom(feed: FeedInput, now: Date = new Date()): string {
  const { publicUrl, locale } = feed;
  const about = channelOf(feed);
  const self = feedUrl(publicUrl, locale, "atom", about.path);
  return renderXml(
    el(
      "feed",
      { xmlns: "http://www.w3.org/2005/Atom", "xml:lang": LANGUAGE_TAG[locale] },
      el("id", {}, self),
      el("title", { type: "text" }, about.title),
      about.description && el("subtitle", { type: "text" }, about.description),
      el("updated", {}, latestUpdate(feed.posts) ?? now.toISOString()),
      el("link", { rel: "self", type: "application/atom+xml", href: self }),
      el("link", { rel: "alternate", type: "text/html", href: homeUrl(publicUrl, locale, about.path) }),
      // Atom needs an author for every entry: the site stands in for posts without one.
      el("author", {}, el("name", {}, feed.siteName)),
      el("generator", {}, "Inkwell"),
      el("icon", {}, `${publicUrl}${FEED_ICON_PATH}`),
      feed.logo && el("logo", {}, absolute(publicUrl, feed.logo)),
      feed.posts.map((post) => {
        const link = postUrl(publicUrl, locale, post.id);
        return el(
          "entry",
          {},
          el("id", {}, link),
          el("title", { type: "text" }, post.title),
          el("link", { rel: "alternate", type: "text/html", href: fromFeed(link) }),
          atomCover(publicUrl, post.cover),
          el("published", {}, post.publishedAt),
          el("updated", {}, post.updatedAt),
          post.authorName && el("author", {}, el("name", {}, post.authorName)),
          termsOf(post).map((term) => el("category", { term: term.slug, label: term.name })),
          post.series &&
            el("category", {
              term: post.series.slug,
              scheme: `${publicUrl}/${locale}/series/`,
              label: post.series.name,
            }),
          post.summary && el("summary", { type: "text" }, post.summary),
          el("content", { type: "html" }, absolutizeUrls(withoutControls(post.bodyHtml), publicUrl)),
        );
      }),
    ),
  );
}

/** Pages that exist in both languages: their /en and /zh forms, and the plain path as x-default. */
function bilingualUrls(publicUrl: string, path: string, lastmod: string | null): XmlElement[] {
  const at = (l: Locale) => `${publicUrl}/${l}${path === "/" ? "" : path}`;
  const alternates = [
    el("xhtml:link", { rel: "alternate", hreflang: "en", href: at("en") }),
    el("xhtml:link", { rel: "alternate", hreflang: "zh", href: at("zh") }),
    el("xhtml:link", { rel: "alternate", hreflang: "x-default", href: `${publicUrl}${path}` }),
  ];
  return (["en", "zh"] as const).map((l) =>
    el("url", {}, el("loc", {}, at(l)), lastmod !== null && el("lastmod", {}, lastmod), alternates),
  );
}

export interface SitemapInput extends SitemapData {
  publicUrl: string;
  /** Pages of `/posts/page/{n}` (from the site's page size). */
  listPageCount: number;
}

const URLSET_ATTRIBUTES = {
  xmlns: "http://www.sitemaps.org/schemas/sitemap/0.9",
  "xmlns:xhtml": "http://www.w3.org/1999/xhtml",
};

/** Each published post: both languages with hreflang alternates, or its one language. */
function postUrls(publicUrl: string, posts: SitemapData["posts"]): XmlElement[] {
  return posts.flatMap((post) => {
    const path = `/posts/detail/${encodeURIComponent(post.id)}`;
    if (post.locales.length > 1) return bilingualUrls(publicUrl, path, post.updatedAt);
    return post.locales.map((l) =>
      el("url", {}, el("loc", {}, postUrl(publicUrl, l, post.id)), el("lastmod", {}, post.updatedAt)),
    );
  });
}

/** Categories, tags and authors with posts, then the published pages (about, contact, privacy, the owner's). */
function termAndStaticUrls(
  publicUrl: string,
  input: Pick<SitemapData, "categories" | "tags" | "series" | "authors" | "pages">,
): XmlElement[] {
  return [
    ...input.categories.flatMap((c) =>
      bilingualUrls(publicUrl, `/categories/${encodeURIComponent(c.slug)}`, c.updatedAt),
    ),
    ...input.tags.flatMap((t) => bilingualUrls(publicUrl, `/tags/${encodeURIComponent(t.slug)}`, t.updatedAt)),
    ...input.series.flatMap((s) => bilingualUrls(publicUrl, `/series/${encodeURIComponent(s.slug)}`, s.updatedAt)),
    ...input.authors.flatMap((a) => bilingualUrls(publicUrl, `/authors/${a.handle}`, a.updatedAt)),
    ...input.pages.flatMap((page) => bilingualUrls(publicUrl, `/${encodeURIComponent(page.slug)}`, page.updatedAt)),
  ];
}

/** Home and the post list pages; `latest` is the newest post's last change, when known. */
function listUrls(publicUrl: string, listPageCount: number, latest: string | null): XmlElement[] {
  const urls = [...bilingualUrls(publicUrl, "/", latest), ...bilingualUrls(publicUrl, "/posts", latest)];
  for (let n = 2; n <= listPageCount; n++) urls.push(...bilingualUrls(publicUrl, `/posts/page/${n}`, null));
  return urls;
}

/**
 * Every public page in one file: home and the post list pages, each published post
 * (with hreflang alternates when it has both languages), categories and tags with
 * posts, and the static pages. A file may hold 50,000 URLs; a blog with more posts
 * than SITEMAP_POSTS_PER_FILE gets an index of smaller files instead (sitemap.server.ts).
 */
export function buildSitemap(input: SitemapInput): string {
  const { publicUrl } = input;
  const latest = input.posts.reduce<string | null>((m, p) => (m === null || p.updatedAt > m ? p.updatedAt : m), null);
  return renderXml(
    el("urlset", URLSET_ATTRIBUTES, [
      ...listUrls(publicUrl, input.listPageCount, latest),
      ...postUrls(publicUrl, input.posts),
      ...termAndStaticUrls(publicUrl, input),
    ]),
  );
}

/** A large blog's sitemap index: the address of each of its files. */
export function buildSitemapIndex(publicUrl: string, paths: readonly string[]): string {
  return renderXml(
    el(
      "sitemapindex",
      { xmlns: "http://www.sitemaps.org/schemas/sitemap/0.9" },
      paths.map((path) => el("sitemap", {}, el("loc", {}, `${publicUrl}${path}`))),
    ),
  );
}

/** A large blog's pages file: home, the list pages, categories, tags and the static pages. */
export function buildSitemapPages(
  input: Pick<SitemapInput, "publicUrl" | "listPageCount" | "categories" | "tags" | "series" | "authors" | "pages">,
): string {
  return renderXml(
    el("urlset", URLSET_ATTRIBUTES, [
      ...listUrls(input.publicUrl, input.listPageCount, null),
      ...termAndStaticUrls(input.publicUrl, input),
    ]),
  );
}

/** One of a large blog's post files. */
export function buildSitemapPosts(publicUrl: string, posts: SitemapData["posts"]): string {
  return renderXml(el("urlset", URLSET_ATTRIBUTES, postUrls(publicUrl, posts)));
}

/** Pages for people, not crawlers: admin, account, search results and the writing screens. */
const PRIVATE_PATHS = [
  "/admin",
  "/account",
  "/api/",
  "/search?",
  "/posts/myPosts",
  "/posts/createPost",
  "/posts/edit/",
];

export function robotsTxt(publicUrl: string): string {
  const disallow = PRIVATE_PATHS.flatMap((p) =>
    p.startsWith("/api/") || p === "/admin" ? [p] : [p, `/en${p}`, `/zh${p}`],
  );
  return [
    "User-agent: *",
    "Allow: /",
    ...disallow.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
