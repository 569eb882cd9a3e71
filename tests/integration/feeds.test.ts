import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { createCategory, ensureTags } from "../../app/server/taxonomy/taxonomy.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// The feeds, sitemap, robots.txt and the category and tag pages, through the
// production server: routes, status codes, content types and cache headers.

const PUBLIC_URL = "http://blog.example.test";
const NASTY = `Fish & chips <"at"> Tom's`;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  isArray: (name) => ["item", "entry", "url", "category"].includes(name),
});

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { res, text: await res.text() };
}

const COVER_ID = "cover000000000000001";

describe(`feeds, sitemap and listings (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, PUBLIC_URL });
    // The server has migrated the database; write the posts beside it.
    const writer = openDatabase(parseDatabaseUrl(database.url, path.resolve(dataDir)), { poolMax: 1 });
    try {
      const { db } = writer;
      const code = await createCategory(db, { slug: "code", nameEn: "Code", nameZh: "编程" });
      const [ts] = await ensureTags(db, ["TypeScript"]);
      const tagIds = ts ? [ts] : [];
      await createPost(db, {
        slug: "both",
        authorId: null,
        status: "published",
        publishedAt: "2026-11-20T08:00:00.000Z",
        categoryId: code,
        tagIds,
        translations: [
          { locale: "en", title: NASTY, summary: "Both languages", bodyHtml: "<p>English body</p>" },
          { locale: "zh", title: "双语文章", summary: "两种语言", bodyHtml: "<p>中文正文</p>" },
        ],
      });
      await createPost(db, {
        slug: "english-only",
        authorId: null,
        status: "published",
        publishedAt: "2026-11-21T08:00:00.000Z",
        categoryId: code,
        translations: [{ locale: "en", title: "Only English", bodyHtml: "<p>x</p>" }],
      });
      // The bilingual post has an uploaded cover: the feeds name it with the upload's type and size.
      const at = "2026-11-20T08:00:00.000Z";
      await db
        .insertInto("media")
        .values({
          id: COVER_ID,
          originalName: "cover.jpg",
          bucket: "local",
          name: `${COVER_ID}/image.jpg`,
          fullPath: `local/${COVER_ID}/image.jpg`,
          size: 48213,
          md5Hash: "x",
          generation: "1",
          contentType: "image/jpeg",
          cacheControl: "public",
          width: 1600,
          height: 900,
          uploadedBy: null,
          createdAt: at,
          updatedAt: at,
        })
        .execute();
      await db
        .updateTable("posts")
        .set({ coverImageUrl: `/media/${COVER_ID}/image.jpg` })
        .where("slug", "=", "both")
        .execute();
      await createPost(db, {
        slug: "draft",
        authorId: null,
        status: "draft",
        publishedAt: null,
        categoryId: code,
        tagIds,
        translations: [{ locale: "en", title: "Secret draft" }],
      });
      await createPost(db, {
        slug: "later",
        authorId: null,
        status: "scheduled",
        publishedAt: "2099-01-01T08:00:00.000Z",
        categoryId: code,
        translations: [
          { locale: "en", title: "Scheduled for later" },
          { locale: "zh", title: "定时文章" },
        ],
      });
    } finally {
      await writer.close();
    }
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.cleanup();
  });

  it("serves /rss.xml in the default language (Chinese) and /en/rss.xml in English", async () => {
    const zh = await get(`${server.url}/rss.xml`, { "accept-language": "en", cookie: "locale=en" });
    expect(zh.res.status).toBe(200);
    expect(zh.res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(zh.res.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    expect(XMLValidator.validate(zh.text)).toBe(true);
    const zhChannel = parser.parse(zh.text).rss.channel;
    expect(zhChannel.language).toBe("zh-CN");
    expect(zhChannel.item.map((i: { title: string }) => i.title)).toEqual(["双语文章"]);
    expect(zhChannel.item[0].link).toMatch(new RegExp(`^${PUBLIC_URL}/zh/posts/detail/\\w+\\?utm_source=feed$`));
    expect(zhChannel.item[0].category).toEqual(["编程", "TypeScript"]);

    const en = await get(`${server.url}/en/rss.xml`);
    const enItems = parser.parse(en.text).rss.channel.item;
    expect(enItems.map((i: { title: string }) => i.title)).toEqual(["Only English", NASTY]);
    expect(enItems[1]["content:encoded"]).toBe("<p>English body</p>");
    expect((await get(`${server.url}/zh/rss.xml`)).text).toBe(zh.text);
  });

  it("gives posts with covers their image, and the feeds an icon and a logo", async () => {
    const cover = `${PUBLIC_URL}/media/${COVER_ID}/image.jpg`;
    const rss = (await get(`${server.url}/en/rss.xml`)).text;
    expect(rss).toContain(`<enclosure url="${cover}" length="48213" type="image/jpeg"/>`);
    expect(rss).toContain(
      `<media:content url="${cover}" medium="image" type="image/jpeg" fileSize="48213" width="1600" height="900"/>`,
    );
    expect(rss).toContain(`<image><url>${PUBLIC_URL}/social.jpg</url>`);
    // Only the post with a cover has one.
    expect(rss.match(/<enclosure /g)).toHaveLength(1);
    const atom = (await get(`${server.url}/zh/atom.xml`)).text;
    expect(atom).toContain(`<link rel="enclosure" href="${cover}" type="image/jpeg" length="48213"/>`);
    expect(atom).toContain(`<icon>${PUBLIC_URL}/favicon.svg</icon>`);
    expect(atom).toContain(`<logo>${PUBLIC_URL}/social.jpg</logo>`);
  });

  it("serves Atom feeds per language", async () => {
    const { res, text } = await get(`${server.url}/en/atom.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const feed = parser.parse(text).feed;
    expect(feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.entry.map((e: { title: { "#text": string } }) => e.title["#text"])).toEqual(["Only English", NASTY]);
    const zh = parser.parse((await get(`${server.url}/atom.xml`)).text).feed;
    expect(zh["@_xml:lang"]).toBe("zh-CN");
    expect(zh.entry).toHaveLength(1);
  });

  it("serves a JSON Feed per language with the RSS feed's items, ids and HTML", async () => {
    for (const [path, locale, titles] of [
      ["/en/feed.json", "en", ["Only English", NASTY]],
      ["/zh/feed.json", "zh", ["双语文章"]],
      ["/feed.json", "zh", ["双语文章"]],
    ] as const) {
      const { res, text } = await get(`${server.url}${path}`, { "accept-language": "en", cookie: "locale=en" });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe("application/feed+json; charset=utf-8");
      expect(res.headers.get("cache-control"), path).toBe(
        (await get(`${server.url}/${locale}/rss.xml`)).res.headers.get("cache-control"),
      );
      const feed = JSON.parse(text);
      expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
      expect(feed.title, path).toEqual(expect.any(String));
      expect(feed.home_page_url).toBe(`${PUBLIC_URL}/${locale}`);
      expect(feed.feed_url).toBe(`${PUBLIC_URL}/${locale}/feed.json`);
      expect(feed.favicon).toBe(`${PUBLIC_URL}/favicon.svg`);
      expect(feed.icon).toBe(`${PUBLIC_URL}/social.jpg`);
      expect(feed.language).toBe(locale === "en" ? "en-US" : "zh-CN");
      // Drafts and scheduled posts never show.
      expect(
        feed.items.map((i: { title: string }) => i.title),
        path,
      ).toEqual(titles);
      const rss = parser.parse((await get(`${server.url}/${locale}/rss.xml`)).text).rss.channel.item;
      feed.items.forEach((item: Record<string, unknown>, n: number) => {
        expect(item.id).toBe(rss[n].guid["#text"]);
        expect(item.url).toBe(rss[n].link);
        expect(item.content_html).toBe(rss[n]["content:encoded"]);
        expect(item.content_html).not.toMatch(/<script|code-copy/);
        expect(item.date_published).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(item.date_modified).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(item.tags).toContain(locale === "en" ? "Code" : "编程");
        expect(item.language).toBe(feed.language);
        expect(JSON.stringify(item)).not.toContain("@");
      });
    }
    const en = JSON.parse((await get(`${server.url}/en/feed.json`)).text);
    expect(en.items[1].image).toBe(`${PUBLIC_URL}/media/${COVER_ID}/image.jpg`);
    expect(en.items[1].summary).toBe("Both languages");
    expect(en.items[0]).not.toHaveProperty("image");
  });

  it("serves the sitemap with posts, the category and the tag", async () => {
    const { res, text } = await get(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(XMLValidator.validate(text)).toBe(true);
    const locs: string[] = parser.parse(text).urlset.url.map((u: { loc: string }) => u.loc);
    expect(locs.filter((l) => l.includes("/posts/detail/"))).toHaveLength(3);
    expect(locs).toContain(`${PUBLIC_URL}/en/categories/code`);
    expect(locs).toContain(`${PUBLIC_URL}/zh/tags/typescript`);
    expect(locs).toContain(`${PUBLIC_URL}/en/privacy`);
    // A blog this small has no split files (they exist past SITEMAP_POSTS_PER_FILE posts).
    for (const file of ["pages.xml", "posts-1.xml", "nope.xml"]) {
      expect((await get(`${server.url}/sitemaps/${file}`)).res.status, file).toBe(404);
    }
  });

  it("gives feeds and the sitemap a strong ETag and answers 304 to a reader who has them", async () => {
    for (const path of ["/rss.xml", "/en/atom.xml", "/zh/feed.json", "/sitemap.xml"]) {
      const first = await get(`${server.url}${path}`);
      const etag = first.res.headers.get("etag") ?? "";
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      const again = await get(`${server.url}${path}`, { "if-none-match": etag });
      expect(again.res.status, path).toBe(304);
      expect(again.text, path).toBe("");
      expect(again.res.headers.get("etag"), path).toBe(etag);
      const other = await get(`${server.url}${path}`, { "if-none-match": '"something-else", W/"x"' });
      expect(other.res.status, path).toBe(200);
      expect(other.text, path).toBe(first.text);
    }
  });

  it("serves robots.txt pointing at the sitemap", async () => {
    const { res, text } = await get(`${server.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(text).toContain("Disallow: /admin\n");
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it("shows a category's and a tag's posts, titled by the name in the reader's language", async () => {
    const en = await get(`${server.url}/en/categories/code`);
    expect(en.res.status).toBe(200);
    expect(en.text).toContain("<title>Code · Inkwell</title>");
    expect(en.text).toContain("Only English");
    expect(en.text).toContain("Fish &amp; chips");
    expect(en.text).not.toContain("Secret draft");
    expect(en.text).toContain(`<link rel="canonical" href="${PUBLIC_URL}/en/categories/code"/>`);
    expect(en.text).toContain(`hrefLang="zh" href="${PUBLIC_URL}/zh/categories/code"`);
    const zh = await get(`${server.url}/zh/tags/typescript`);
    expect(zh.res.status).toBe(200);
    expect(zh.text).toMatch(/<title>TypeScript · 墨水博客<\/title>/);
    expect(zh.text).toContain("双语文章");
    expect(zh.text).not.toContain("Only English");
  });

  it("answers 404 for unknown slugs and pages that do not exist", async () => {
    for (const p of [
      "/categories/nope",
      "/tags/nope",
      "/en/categories/code/page/2",
      "/categories/code/page/0",
      "/tags/typescript/page/1e9",
      `/categories/${"x".repeat(300)}`,
    ]) {
      const { res } = await get(`${server.url}${p}`);
      expect(res.status, p).toBe(404);
    }
    expect((await get(`${server.url}/categories/code/page/1`)).res.status).toBe(200);
  });

  it("links the feeds from every page and shows popular categories in the footer", async () => {
    const { text } = await get(`${server.url}/en`);
    expect(text).toContain(`type="application/rss+xml" title="Inkwell (RSS)" href="${PUBLIC_URL}/en/rss.xml"`);
    expect(text).toContain(`type="application/atom+xml" title="Inkwell (Atom)" href="${PUBLIC_URL}/en/atom.xml"`);
    expect(text).toContain(
      `type="application/feed+json" title="Inkwell (JSON Feed)" href="${PUBLIC_URL}/en/feed.json"`,
    );
    const zh = await get(`${server.url}/zh`);
    expect(zh.text).toMatch(/type="application\/feed\+json" title="[^"]+ \(JSON Feed\)" href="[^"]+\/zh\/feed\.json"/);
    expect(text).toMatch(/Popular categories<\/h2><ul[^>]*><li><a[^>]*href="\/en\/categories\/code"[^>]*>Code<\/a>/);
  });
});
