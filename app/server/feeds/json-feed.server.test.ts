import { describe, expect, it } from "vitest";
import type { FeedInput } from "./feeds.server.ts";
import { buildJsonFeed, JSON_FEED_VERSION, type JsonFeed } from "./json-feed.server.ts";

const BASE = "https://blog.example.test";
const NASTY = `Tom & Jerry's <"quoted"> post`;

const feed: FeedInput = {
  publicUrl: BASE,
  locale: "zh",
  siteName: "墨水 & friends",
  siteDescription: "关于 <代码>",
  logo: "/social.jpg",
  posts: [
    {
      id: "post2",
      publishedAt: "2026-11-20T08:00:00.000Z",
      updatedAt: "2026-11-21T09:30:00.000Z",
      title: NASTY,
      summary: "摘要",
      bodyHtml:
        '<p>A <a href="/posts/detail/x">link</a> and <img src="/uploads/c.png" alt=""></p><script>alert(1)</script>',
      authorName: "Ada",
      category: { id: "c1", slug: "code", name: "编程" },
      tags: [{ id: "t1", slug: "ts", name: "TypeScript" }],
      series: { slug: "learn-ts", name: "学 TS" },
      cover: { url: "/media/abc/image.jpg", type: "image/jpeg", length: 48213, width: 1600, height: 900 },
    },
    {
      id: "post1",
      publishedAt: "2026-11-10T08:00:00.000Z",
      updatedAt: "2026-11-10T08:00:00.000Z",
      title: "Plain",
      summary: "",
      bodyHtml:
        '<div class="code-block" data-language="ts"><pre><code>x</code></pre><button type="button" class="code-copy">Copy</button></div>',
      authorName: null,
      category: null,
      series: null,
      tags: [],
      cover: { url: "https://cdn.example.test/c.png", type: null, length: null, width: null, height: null },
    },
  ],
};

describe("JSON Feed 1.1", () => {
  const text = buildJsonFeed(feed);
  const doc = JSON.parse(text) as JsonFeed;

  it("names the version, the feed, its page, pictures and language", () => {
    expect(doc).toMatchObject({
      version: JSON_FEED_VERSION,
      title: "墨水 & friends",
      home_page_url: `${BASE}/zh`,
      feed_url: `${BASE}/zh/feed.json`,
      description: "关于 <代码>",
      icon: `${BASE}/social.jpg`,
      favicon: `${BASE}/favicon.svg`,
      language: "zh-CN",
    });
    expect(doc.items).toHaveLength(2);
  });

  it("gives each item the feeds' id, a tagged url, the HTML with absolute links, and its details", () => {
    const [first, second] = doc.items;
    expect(first).toEqual({
      id: `${BASE}/zh/posts/detail/post2`,
      url: `${BASE}/zh/posts/detail/post2?utm_source=feed`,
      title: NASTY,
      content_html: `<p>A <a href="${BASE}/posts/detail/x">link</a> and <img src="${BASE}/uploads/c.png" alt=""></p><script>alert(1)</script>`,
      summary: "摘要",
      image: `${BASE}/media/abc/image.jpg`,
      date_published: "2026-11-20T08:00:00.000Z",
      date_modified: "2026-11-21T09:30:00.000Z",
      authors: [{ name: "Ada" }],
      tags: ["编程", "TypeScript", "学 TS"],
      language: "zh-CN",
    });
    // No empty summary, author or tags; a remote cover as it is; the copy button is not content.
    expect(second).not.toHaveProperty("summary");
    expect(second).not.toHaveProperty("authors");
    expect(second).not.toHaveProperty("tags");
    expect(second?.image).toBe("https://cdn.example.test/c.png");
    expect(second?.content_html).not.toContain("code-copy");
  });

  it("escapes < so no text can end a surrounding script", () => {
    expect(text).not.toContain("<");
  });

  it("is the feed of an author's posts at their page", () => {
    const scoped = JSON.parse(
      buildJsonFeed({ ...feed, locale: "en", scope: { title: "Ada", description: "", path: "/authors/ada" } }),
    ) as JsonFeed;
    expect(scoped.feed_url).toBe(`${BASE}/en/authors/ada/feed.json`);
    expect(scoped.home_page_url).toBe(`${BASE}/en/authors/ada`);
    expect(scoped).not.toHaveProperty("description");
    expect(scoped.items[0]?.language).toBe("en-US");
  });
});
