import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { forgetPostCounts } from "../posts/post-counts.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { parseSitemapFile, type SitemapPart, sitemapXml } from "./sitemap.server.ts";

const BASE = "https://blog.example.test";
const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "url" || name === "sitemap" });
const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();

let database: TestDatabase;
const ids: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Five published posts (the third English only), oldest first, and a draft.
  for (let n = 1; n <= 5; n++) {
    ids.push(
      await createPost(database.db, {
        slug: `post-${n}`,
        authorId: null,
        status: "published",
        publishedAt: day(n),
        translations:
          n === 3
            ? [{ locale: "en", title: `Post ${n}` }]
            : [
                { locale: "en", title: `Post ${n}` },
                { locale: "zh", title: `文章 ${n}` },
              ],
      }),
    );
  }
  await createPost(database.db, {
    slug: "draft",
    authorId: null,
    status: "draft",
    publishedAt: null,
    translations: [{ locale: "en", title: "Draft" }],
  });
});
afterAll(async () => {
  await database.cleanup();
});

async function xml(part: SitemapPart, perFile: number): Promise<string | null> {
  forgetPostCounts(database.db);
  return sitemapXml(database.db, { part, publicUrl: BASE, postsPerPage: 2, perFile });
}

const locs = (text: string | null, element: "url" | "sitemap") => {
  expect(text).not.toBeNull();
  expect(XMLValidator.validate(text ?? "")).toBe(true);
  const doc = parser.parse(text ?? "");
  const list: Array<{ loc: string }> = (element === "url" ? doc.urlset?.url : doc.sitemapindex?.sitemap) ?? [];
  return list.map((u) => u.loc);
};

describe(`sitemap files (${testDialect()})`, () => {
  it("keeps one /sitemap.xml for a blog that fits one file, and no other files", async () => {
    const all = locs(await xml({ kind: "root" }, 5), "url");
    expect(all).toContain(`${BASE}/en/posts/detail/${ids[0]}`);
    expect(all).toContain(`${BASE}/en/posts/page/3`);
    expect(all.filter((l) => l.includes("/posts/detail/"))).toHaveLength(9);
    expect(await xml({ kind: "pages" }, 5)).toBeNull();
    expect(await xml({ kind: "posts", n: 1 }, 5)).toBeNull();
  });

  it("splits a larger blog into an index of a pages file and post files, oldest posts first", async () => {
    expect(locs(await xml({ kind: "root" }, 2), "sitemap")).toEqual([
      `${BASE}/sitemaps/pages.xml`,
      `${BASE}/sitemaps/posts-1.xml`,
      `${BASE}/sitemaps/posts-2.xml`,
      `${BASE}/sitemaps/posts-3.xml`,
    ]);
    const postOf = (loc: string) => loc.replace(/^.*\/posts\/detail\//, "");
    const files = await Promise.all([1, 2, 3].map(async (n) => locs(await xml({ kind: "posts", n }, 2), "url")));
    expect(files.map((f) => [...new Set(f.map(postOf))])).toEqual([[ids[0], ids[1]], [ids[2], ids[3]], [ids[4]]]);
    // Both languages of a bilingual post, the one language of the English-only post; never the draft.
    expect(files.flat()).toHaveLength(9);
    expect(files[1]).toContain(`${BASE}/en/posts/detail/${ids[2]}`);
    expect(files[1]).not.toContain(`${BASE}/zh/posts/detail/${ids[2]}`);
    expect(await xml({ kind: "posts", n: 4 }, 2)).toBeNull();

    const pages = locs(await xml({ kind: "pages" }, 2), "url");
    expect(pages).toEqual(expect.arrayContaining([`${BASE}/en`, `${BASE}/zh/posts/page/3`, `${BASE}/en/about`]));
    expect(pages.some((l) => l.includes("/posts/detail/"))).toBe(false);
  });

  it("reads only the file names it writes", () => {
    expect(parseSitemapFile("pages.xml")).toEqual({ kind: "pages" });
    expect(parseSitemapFile("posts-12.xml")).toEqual({ kind: "posts", n: 12 });
    for (const bad of [
      "posts-0.xml",
      "posts-01.xml",
      "posts--1.xml",
      "posts-1.xml.gz",
      "posts-12345678.xml",
      "x.xml",
    ]) {
      expect(parseSitemapFile(bad), bad).toBeNull();
    }
  });
});
