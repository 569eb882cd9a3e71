import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ImportedPost, parseSourceDate, sourceLocale } from "./core.server.ts";
import { pagesFolderParts, readMarkdownFolder, streamMarkdownFolder } from "./markdown-folder.server.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../../tests/fixtures/markdown-blog");

describe("reading a Markdown folder", () => {
  it("pairs languages by suffix, folder and Hexo lang + slug, and lists what it cannot pair", async () => {
    const read = await readMarkdownFolder(FIXTURE);
    expect(read.files).toBe(14);
    const byId = new Map(read.posts.map((p) => [p.sourceId, p]));
    expect([...byId.keys()].sort()).toEqual([
      "content/about-hugo",
      "content/posts/draft",
      "content/posts/hello",
      "file:content/posts/twin.en.md",
      "file:content/posts/twin.md",
      "hostile/xss",
      "plain/json-post",
      "slug:source/_posts/intro",
      "source/_posts/first-post",
    ]);
    expect(byId.get("content/posts/hello")?.translations.map((t) => [t.locale, t.origin])).toEqual([
      ["en", "content/posts/hello.en.md"],
      ["zh", "content/posts/hello.zh.md"],
    ]);
    expect(byId.get("content/about-hugo")?.translations.map((t) => t.locale)).toEqual(["en", "zh"]);
    expect(byId.get("slug:source/_posts/intro")?.translations.map((t) => t.title)).toEqual(["Introduction", "介绍"]);
    expect(read.problems.map((p) => [p.outcome, p.reason, p.item])).toEqual([
      ["failed", "frontMatterAliases", "hostile/bomb.md"],
      ["failed", "frontMatterUnclosed", "hostile/broken.md"],
      ["ambiguous", "pairingAmbiguous", "content/posts/twin.en.md + content/posts/twin.md"],
    ]);
  });

  it("reads the fields the issue lists and the old addresses", async () => {
    const read = await readMarkdownFolder(FIXTURE, { permalink: "/blog/:year/:slug/" });
    const hello = read.posts.find((p) => p.sourceId === "content/posts/hello");
    expect(hello).toMatchObject({
      slug: "hello-world",
      publishedAt: "2021-03-04T09:30:00.000Z",
      status: "published",
      tags: ["Intro", "Meta", "介绍"],
      categories: ["Notes", "Travel"],
      cover: "pic.png",
    });
    expect(hello?.oldUrls).toEqual(
      expect.arrayContaining([
        "/old/hello.html",
        "/posts/hello-world/",
        "/2021/03/04/hello-world/",
        "/zh/posts/hello-world/",
        "/blog/2021/hello-world/",
      ]),
    );
    const hexo = read.posts.find((p) => p.sourceId === "source/_posts/first-post");
    expect(hexo?.oldUrls).toContain("2019/05/06/first-post/");
    expect(hexo?.tags).toEqual(["hexo", "old"]);
    expect(hexo?.categories).toEqual(["Tech", "Web"]);
    expect(read.posts.find((p) => p.sourceId === "content/posts/draft")?.status).toBe("draft");
    expect(read.posts.find((p) => p.sourceId === "plain/json-post")?.publishedAt).toBe("2022-07-08T10:00:00.000Z");
  });

  it("understands the dates and language names sources write", () => {
    expect(parseSourceDate("2021-03-04")).toBe("2021-03-04T00:00:00.000Z");
    expect(parseSourceDate("2021-03-04 09:30")).toBe("2021-03-04T09:30:00.000Z");
    expect(parseSourceDate("2021-03-04T09:30:00+08:00")).toBe("2021-03-04T01:30:00.000Z");
    expect(parseSourceDate(new Date("2020-01-01T00:00:00Z"))).toBe("2020-01-01T00:00:00.000Z");
    expect(parseSourceDate("yesterday")).toBeNull();
    expect(parseSourceDate("2021-02-31")).toBeNull();
    expect(parseSourceDate("0001-01-01")).toBeNull();
    expect(["en-US", "zh-Hans", "zh_CN", "cn", "fr"].map(sourceLocale)).toEqual(["en", "zh", "zh", "zh", null]);
  });
});

describe("streaming a Markdown folder", () => {
  it("hands posts on in batches, pairs across batches, and counts what it read", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkwell-md-stream-"));
    try {
      await mkdir(path.join(dir, "posts"));
      for (let i = 0; i < 230; i++)
        await writeFile(
          path.join(dir, "posts", `p${String(i).padStart(3, "0")}.en.md`),
          `---\ntitle: Post ${i}\n---\n\nBody ${i}.\n`,
        );
      // The Chinese half of the first post sorts last: its pair is still one post.
      await mkdir(path.join(dir, "zz"));
      await writeFile(
        path.join(dir, "zz", "p000.md"),
        "---\ntitle: 第一篇\nlang: zh\ntranslationKey: first\n---\n\n正文。\n",
      );
      await writeFile(
        path.join(dir, "posts", "p000.en.md"),
        "---\ntitle: Post 0\ntranslationKey: first\n---\n\nBody 0.\n",
      );
      const batches: ImportedPost[][] = [];
      const read = await streamMarkdownFolder(dir, {}, async (posts) => {
        batches.push(posts);
      });
      expect(batches.map((b) => b.length)).toEqual([100, 100, 30]);
      expect(read).toMatchObject({ files: 231, posts: 230, pairs: 1, problems: [] });
      const first = batches[0]?.[0];
      expect(first?.translations.map((t) => [t.locale, t.title, t.bodyMarkdown.trim()])).toEqual([
        ["en", "Post 0", "Body 0."],
        ["zh", "第一篇", "正文。"],
      ]);
      expect(batches[2]?.[29]?.translations[0]?.bodyMarkdown.trim()).toBe("Body 229.");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("Markdown files marked as pages", () => {
  it("reads `type: page`, `layout: page` and the files of a folder the owner names as pages", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkwell-md-pages-"));
    const put = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), text);
    };
    try {
      await put("content/en/pages/contact-us.md", "---\ntitle: Contact us\naliases: [/old-contact/]\n---\n\nWrite.\n");
      await put("content/zh/pages/contact-us.md", "---\ntitle: 联系我们\n---\n\n来信。\n");
      await put("content/posts/hugo-page.md", "---\ntitle: Hugo page\ntype: page\ndate: 2020-01-02\n---\n\nA.\n");
      await put("_posts/jekyll.md", "---\ntitle: Jekyll page\nlayout: Page\n---\n\nB.\n");
      await put("content/posts/normal.md", "---\ntitle: Normal\ndate: 2020-01-02\n---\n\nC.\n");
      const read = await readMarkdownFolder(dir, { pagesFolder: "/pages/" });
      const byId = new Map(read.posts.map((p) => [p.sourceId, p]));
      const contact = byId.get("content/pages/contact-us");
      expect(contact?.kind).toBe("page");
      expect(contact?.translations.map((t) => [t.locale, t.title])).toEqual([
        ["en", "Contact us"],
        ["zh", "联系我们"],
      ]);
      // A page lived at /{slug}/ (no /posts/ or dated patterns), with its aliases.
      expect(contact?.oldUrls).toEqual(["/old-contact/", "/contact-us/", "/en/contact-us/", "/zh/contact-us/"]);
      expect(byId.get("content/posts/hugo-page")).toMatchObject({ kind: "page", oldUrls: ["/hugo-page/"] });
      expect(byId.get("_posts/jekyll")?.kind).toBe("page");
      expect(byId.get("content/posts/normal")?.kind).toBeUndefined();
      // Without the folder named, the folder's files are posts; the front matter still decides.
      const plain = new Map((await readMarkdownFolder(dir)).posts.map((p) => [p.sourceId, p.kind]));
      expect(plain.get("content/pages/contact-us")).toBeUndefined();
      expect(plain.get("content/posts/hugo-page")).toBe("page");
      // A folder name that is a part of another name is not that folder.
      const other = new Map(
        (await readMarkdownFolder(dir, { pagesFolder: "page" })).posts.map((p) => [p.sourceId, p.kind]),
      );
      expect(other.get("content/pages/contact-us")).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("takes a folder of pages as folder names, refusing one that leaves the folder", () => {
    expect(pagesFolderParts("/content/pages/")).toEqual(["content", "pages"]);
    expect(pagesFolderParts("content\\pages")).toEqual(["content", "pages"]);
    expect(pagesFolderParts(" pages ")).toEqual(["pages"]);
    expect(pagesFolderParts("")).toBeNull();
    expect(pagesFolderParts("/")).toBeNull();
    expect(pagesFolderParts("../secrets")).toBeNull();
  });
});
