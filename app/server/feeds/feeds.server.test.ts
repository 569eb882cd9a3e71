import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { FeedPost } from "./discovery.server.ts";
import { absolutizeUrls, buildAtom, buildRss, buildSitemap, type FeedInput, robotsTxt } from "./feeds.server.ts";

const NASTY = `Tom & Jerry's <"quoted"> post`;
const BASE = "https://blog.example.test";

const feed: FeedInput = {
  publicUrl: BASE,
  locale: "en",
  siteName: "Inkwell & friends",
  siteDescription: "Notes <on> code",
  posts: [
    {
      id: "post2",
      publishedAt: "2026-11-20T08:00:00.000Z",
      updatedAt: "2026-11-21T09:30:00.000Z",
      title: NASTY,
      summary: `Summary with ${NASTY}`,
      bodyHtml:
        '<h2 id="a">Hi</h2><p>A <a href="/posts/detail/x">link</a> and <img src="/uploads/c.png" alt=""> ]]> end</p>',
      authorName: "Ada <Admin>",
      category: { id: "c1", slug: "code", name: "Code & Craft" },
      tags: [{ id: "t1", slug: "ts", name: `<TypeScript>` }],
      series: { slug: "learn-ts", name: "Learn <TS>" },
      cover: { url: "/media/abc/image.jpg", type: "image/jpeg", length: 48213, width: 1600, height: 900 },
    },
    {
      id: "post1",
      publishedAt: "2026-11-10T08:00:00.000Z",
      updatedAt: "2026-11-10T08:00:00.000Z",
      title: "Plain",
      summary: "",
      bodyHtml:
        '<div class="code-block" data-language="ts"><pre><code>x</code></pre><button type="button" class="code-copy">Copy</button></div><p>plain</p>',
      authorName: null,
      category: null,
      series: null,
      tags: [],
      cover: null,
    },
  ],
  logo: "/social.jpg",
};

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  isArray: (name) => ["item", "entry", "category", "url", "xhtml:link", "link"].includes(name),
});

describe("RSS 2.0", () => {
  const xml = buildRss(feed);
  const doc = parser.parse(xml);
  const channel = doc.rss.channel;

  it("is well-formed RSS 2.0 with the channel's details", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(doc.rss["@_version"]).toBe("2.0");
    expect(doc.rss["@_xmlns:content"]).toBe("http://purl.org/rss/1.0/modules/content/");
    expect(channel.title).toBe("Inkwell & friends");
    expect(channel.description).toBe("Notes <on> code");
    expect(channel.link).toEqual([`${BASE}/en`]);
    expect(channel.language).toBe("en-US");
    expect(channel.lastBuildDate).toBe("Sat, 21 Nov 2026 09:30:00 GMT");
    expect(channel["atom:link"]["@_href"]).toBe(`${BASE}/en/rss.xml`);
    expect(channel["atom:link"]["@_rel"]).toBe("self");
  });

  it("has one item per post, newest first, with escaped text that round-trips", () => {
    expect(channel.item).toHaveLength(2);
    const [item] = channel.item;
    expect(item.title).toBe(NASTY);
    // The link is tagged for Insights; the guid stays the bare address.
    expect(item.link).toEqual([`${BASE}/en/posts/detail/post2?utm_source=feed`]);
    expect(item.guid["#text"]).toBe(`${BASE}/en/posts/detail/post2`);
    expect(item.guid["@_isPermaLink"]).toBe("true");
    expect(item.pubDate).toBe("Fri, 20 Nov 2026 08:00:00 GMT");
    expect(item["dc:creator"]).toBe("Ada <Admin>");
    expect(item.description).toBe(`Summary with ${NASTY}`);
    expect(item.category).toEqual([
      "Code & Craft",
      "<TypeScript>",
      { "#text": "Learn <TS>", "@_domain": `${BASE}/en/series/learn-ts` },
    ]);
    expect(channel.item[1].category).toBeUndefined();
    expect(channel.item[1]["dc:creator"]).toBeUndefined();
  });

  it("carries the full HTML body in CDATA with absolute links, even with ]]> inside", () => {
    const body: string = channel.item[0]["content:encoded"];
    expect(body).toContain('<h2 id="a">Hi</h2>');
    expect(body).toContain(`href="${BASE}/posts/detail/x"`);
    expect(body).toContain(`src="${BASE}/uploads/c.png"`);
    expect(body).toContain("]]> end</p>");
  });

  it("leaves out the code blocks' copy buttons, which nothing in a feed reader runs", () => {
    const body: string = channel.item[1]["content:encoded"];
    expect(body).toContain("<pre><code>x</code></pre>");
    expect(body).not.toContain("<button");
    expect(buildAtom(feed)).not.toContain("button");
  });
});

describe("images in RSS", () => {
  const doc = parser.parse(buildRss(feed));
  const channel = doc.rss.channel;

  it("gives the channel the site's image, and a post with a cover an enclosure and media:content", () => {
    expect(doc.rss["@_xmlns:media"]).toBe("http://search.yahoo.com/mrss/");
    expect(channel.image).toEqual({ url: [`${BASE}/social.jpg`], title: "Inkwell & friends", link: [`${BASE}/en`] });
    const [withCover, without] = channel.item;
    expect(withCover.enclosure).toEqual({
      "@_url": `${BASE}/media/abc/image.jpg`,
      "@_length": "48213",
      "@_type": "image/jpeg",
    });
    expect(withCover["media:content"]).toEqual({
      "@_url": `${BASE}/media/abc/image.jpg`,
      "@_medium": "image",
      "@_type": "image/jpeg",
      "@_fileSize": "48213",
      "@_width": "1600",
      "@_height": "900",
    });
    expect(without.enclosure).toBeUndefined();
    expect(without["media:content"]).toBeUndefined();
  });

  it("names an outside cover as it is, with length 0 when its size is unknown", () => {
    const [first] = feed.posts;
    const outside = buildRss({
      ...feed,
      logo: null,
      posts: [
        {
          ...(first as FeedPost),
          cover: { url: "https://img.example/a.png", type: "image/png", length: null, width: null, height: null },
        },
      ],
    });
    const item = parser.parse(outside).rss.channel.item[0];
    expect(item.enclosure).toEqual({ "@_url": "https://img.example/a.png", "@_length": "0", "@_type": "image/png" });
    expect(item["media:content"]).toEqual({
      "@_url": "https://img.example/a.png",
      "@_medium": "image",
      "@_type": "image/png",
    });
    expect(parser.parse(outside).rss.channel.image).toBeUndefined();
  });
});

describe("images in Atom", () => {
  const doc = parser.parse(buildAtom(feed, new Date("2026-11-22T00:00:00.000Z"))).feed;

  it("has the site's icon and logo, and an enclosure link for a post with a cover", () => {
    expect(doc.icon).toBe(`${BASE}/favicon.svg`);
    expect(doc.logo).toBe(`${BASE}/social.jpg`);
    const [withCover, without] = doc.entry;
    expect(withCover.link.filter((l: Record<string, string>) => l["@_rel"] === "enclosure")).toEqual([
      { "@_rel": "enclosure", "@_href": `${BASE}/media/abc/image.jpg`, "@_type": "image/jpeg", "@_length": "48213" },
    ]);
    expect(without.link.filter((l: Record<string, string>) => l["@_rel"] === "enclosure")).toEqual([]);
  });
});

describe("Atom 1.0", () => {
  const xml = buildAtom({ ...feed, locale: "zh" });
  const doc = parser.parse(xml);
  const root = doc.feed;

  it("is a well-formed Atom feed in the Atom namespace", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(root["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(root["@_xml:lang"]).toBe("zh-CN");
    expect(root.id).toBe(`${BASE}/zh/atom.xml`);
    expect(root.title["#text"]).toBe("Inkwell & friends");
    expect(root.updated).toBe("2026-11-21T09:30:00.000Z");
    expect(root.link.map((l: Record<string, string>) => [l["@_rel"], l["@_href"]])).toEqual([
      ["self", `${BASE}/zh/atom.xml`],
      ["alternate", `${BASE}/zh`],
    ]);
    expect(root.author.name).toBe("Inkwell & friends");
  });

  it("has entries with id, dates, escaped title and summary, categories and HTML content", () => {
    expect(root.entry).toHaveLength(2);
    const [entry] = root.entry;
    expect(entry.id).toBe(`${BASE}/zh/posts/detail/post2`);
    expect(entry.title["#text"]).toBe(NASTY);
    expect(entry.link[0]["@_href"]).toBe(`${BASE}/zh/posts/detail/post2?utm_source=feed`);
    expect(entry.published).toBe("2026-11-20T08:00:00.000Z");
    expect(entry.updated).toBe("2026-11-21T09:30:00.000Z");
    expect(entry.author.name).toBe("Ada <Admin>");
    expect(entry.summary["#text"]).toBe(`Summary with ${NASTY}`);
    expect(entry.category.map((c: Record<string, string>) => [c["@_term"], c["@_label"]])).toEqual([
      ["code", "Code & Craft"],
      ["ts", "<TypeScript>"],
      ["learn-ts", "Learn <TS>"],
    ]);
    expect(entry.category[2]["@_scheme"]).toBe(`${BASE}/zh/series/`);
    expect(entry.content["@_type"]).toBe("html");
    expect(entry.content["#text"]).toContain(`<a href="${BASE}/posts/detail/x">link</a>`);
    // No summary element for an empty summary.
    expect(root.entry[1].summary).toBeUndefined();
  });

  it("is still valid with no posts", () => {
    const empty = buildAtom({ ...feed, posts: [] }, new Date("2026-01-01T00:00:00.000Z"));
    expect(XMLValidator.validate(empty)).toBe(true);
    expect(parser.parse(empty).feed.updated).toBe("2026-01-01T00:00:00.000Z");
    expect(XMLValidator.validate(buildRss({ ...feed, posts: [] }))).toBe(true);
  });
});

describe("sitemap", () => {
  const xml = buildSitemap({
    publicUrl: BASE,
    listPageCount: 2,
    posts: [
      { id: "both", locales: ["en", "zh"], updatedAt: "2026-11-21T09:30:00.000Z" },
      { id: "onlyzh", locales: ["zh"], updatedAt: "2026-11-01T00:00:00.000Z" },
    ],
    categories: [{ slug: "code", updatedAt: "2026-11-21T09:30:00.000Z" }],
    tags: [{ slug: "c++ & more", updatedAt: "2026-11-21T09:30:00.000Z" }],
    series: [{ slug: "learn-ts", updatedAt: "2026-11-20T00:00:00.000Z" }],
    authors: [{ handle: "ada-quill", updatedAt: "2026-11-20T00:00:00.000Z" }],
    pages: ["about", "contact", "privacy", "now"].map((slug) => ({ slug, updatedAt: "2026-11-19T00:00:00.000Z" })),
  });
  const doc = parser.parse(xml);
  const urls: Array<Record<string, unknown>> = doc.urlset.url;
  const byLoc = new Map(urls.map((u) => [u.loc as string, u]));
  const alternates = (loc: string) =>
    ((byLoc.get(loc)?.["xhtml:link"] ?? []) as Array<Record<string, string>>).map((l) => [
      l["@_hreflang"],
      l["@_href"],
    ]);

  it("is a well-formed urlset with the xhtml namespace", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(doc.urlset["@_xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    expect(doc.urlset["@_xmlns:xhtml"]).toBe("http://www.w3.org/1999/xhtml");
  });

  it("lists home, the list pages and the static pages in both languages with alternates", () => {
    for (const path of ["", "/posts", "/posts/page/2", "/about", "/contact", "/privacy", "/now"]) {
      expect(byLoc.has(`${BASE}/en${path}`), path).toBe(true);
      expect(byLoc.has(`${BASE}/zh${path}`), path).toBe(true);
    }
    expect(byLoc.has(`${BASE}/en/posts/page/3`)).toBe(false);
    expect(alternates(`${BASE}/zh/about`)).toEqual([
      ["en", `${BASE}/en/about`],
      ["zh", `${BASE}/zh/about`],
      ["x-default", `${BASE}/about`],
    ]);
    expect(byLoc.get(`${BASE}/en`)?.lastmod).toBe("2026-11-21T09:30:00.000Z");
  });

  it("lists the author pages in both languages", () => {
    expect(byLoc.get(`${BASE}/en/authors/ada-quill`)?.lastmod).toBe("2026-11-20T00:00:00.000Z");
    expect(byLoc.has(`${BASE}/zh/authors/ada-quill`)).toBe(true);
  });

  it("lists posts with lastmod, alternates only when both languages exist", () => {
    const both = `${BASE}/en/posts/detail/both`;
    expect(byLoc.get(both)?.lastmod).toBe("2026-11-21T09:30:00.000Z");
    expect(alternates(both)).toEqual([
      ["en", both],
      ["zh", `${BASE}/zh/posts/detail/both`],
      ["x-default", `${BASE}/posts/detail/both`],
    ]);
    expect(byLoc.has(`${BASE}/zh/posts/detail/both`)).toBe(true);
    expect(byLoc.has(`${BASE}/zh/posts/detail/onlyzh`)).toBe(true);
    expect(byLoc.has(`${BASE}/en/posts/detail/onlyzh`)).toBe(false);
    expect(alternates(`${BASE}/zh/posts/detail/onlyzh`)).toEqual([]);
  });

  it("lists categories and tags, their slugs encoded", () => {
    expect(byLoc.has(`${BASE}/en/categories/code`)).toBe(true);
    expect(byLoc.has(`${BASE}/zh/tags/c%2B%2B%20%26%20more`)).toBe(true);
    expect(byLoc.has(`${BASE}/zh/series/learn-ts`)).toBe(true);
  });
});

describe("robots.txt and links", () => {
  it("allows everything public, keeps crawlers out of private pages, names the sitemap", () => {
    const text = robotsTxt(BASE);
    expect(text).toMatch(/^User-agent: \*\nAllow: \/\n/);
    for (const path of [
      "/admin",
      "/account",
      "/api/",
      "/search?",
      "/posts/myPosts",
      "/posts/createPost",
      "/posts/edit/",
    ]) {
      expect(text).toContain(`\nDisallow: ${path}\n`);
    }
    expect(text).toContain("\nDisallow: /zh/account\n");
    expect(text).toContain(`\nSitemap: ${BASE}/sitemap.xml\n`);
  });

  it("makes only site-relative URLs absolute", () => {
    expect(
      absolutizeUrls('<a href="/x">a</a><a href="//evil.test/x">b</a><img src="https://c.test/i.png">', BASE),
    ).toBe(`<a href="${BASE}/x">a</a><a href="//evil.test/x">b</a><img src="https://c.test/i.png">`);
  });
});
