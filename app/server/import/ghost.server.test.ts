import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ImportedPost } from "./core.server.ts";
import {
  GHOST_FILE_MAX_BYTES,
  ghostImageRef,
  isGhostExport,
  loadGhostExport,
  parseGhostJson,
  readGhostExport,
  streamGhostExport,
} from "./ghost.server.ts";
import { SourceRefused } from "./markdown-folder.server.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../../tests/fixtures/ghost/export.json");

describe("reading a Ghost export", () => {
  it("reads posts, pages, drafts, scheduled posts, tags and languages", async () => {
    const read = readGhostExport(await loadGhostExport(FIXTURE));
    expect(read.problems).toEqual([]);
    const byId = new Map(read.posts.map((p) => [p.sourceId, p]));
    expect([...byId.keys()]).toEqual(["6650a1", "6650a2", "6650a3", "6650a4", "6650a5", "6650a6"]);
    const hello = byId.get("6650a1");
    expect(hello).toMatchObject({
      slug: "hello-ghost",
      status: "published",
      publishedAt: "2024-03-05T10:00:00.000Z",
      // Sorted by sort_order; the internal #feature tag is skipped.
      tags: ["Travel", "Notes"],
      categories: [],
      cover: "/content/images/2024/03/cover.png",
      coverAlt: "A cover",
      oldUrls: ["/hello-ghost/"],
      tagUrls: [
        { from: "/tag/travel/", tag: "Travel" },
        { from: "/tag/notes/", tag: "Notes" },
      ],
    });
    expect(hello?.translations[0]).toMatchObject({
      locale: "en",
      title: "Hello Ghost",
      summary: "A first post from Ghost.",
    });
    const body = hello?.translations[0]?.bodyMarkdown ?? "";
    expect(body).toContain("## Intro\n\nSome **bold** and *italic* text with [a link](https://example.com/)");
    // The resized copy points at the original.
    expect(body).toContain("![A picture](/content/images/2024/03/pic.png)\n\n*The caption*");
    expect(body).toContain("```js\nconst a = 1;\nconsole.log(a);\n```");
    expect(body).not.toContain("__GHOST_URL__");
    expect(hello?.notes.map((n) => [n.reason, n.detail])).toEqual([["ghostKeptAsHtml", "kg-bookmark-card"]]);
    // The author travels with the post, for the writer to match; the address is never a note.
    expect(hello?.author).toEqual({
      sourceId: "1",
      name: "Ghost Writer",
      email: "writer@example.com",
      oldUrls: ["/author/ghost-writer/"],
    });
    expect(byId.get("6650a2")).toMatchObject({ status: "draft", publishedAt: null });
    // A Ghost page is read as a page (decision 035), in no category.
    expect(byId.get("6650a3")).toMatchObject({
      kind: "page",
      status: "published",
      categories: [],
      oldUrls: ["/about-this-blog/"],
    });
    expect(byId.get("6650a1")?.kind).toBeUndefined();
    expect(byId.get("6650a4")?.translations[0]).toMatchObject({ locale: "zh", title: "你好，世界" });
    expect(byId.get("6650a4")?.tags).toEqual(["中文"]);
    expect(byId.get("6650a5")).toMatchObject({ status: "scheduled", publishedAt: "2099-01-01T00:00:00.000Z" });
    const hostile = byId.get("6650a6")?.translations[0]?.bodyMarkdown ?? "";
    expect(hostile).not.toMatch(/javascript:alert\((1|2)\)|alert\(3\)/i);
    expect(hostile).toContain("click me again");
  });

  it("takes the blog's language from the admin", async () => {
    const read = readGhostExport(await loadGhostExport(FIXTURE), { locale: "zh" });
    expect(new Set(read.posts.map((p) => p.translations[0]?.locale))).toEqual(new Set(["zh"]));
  });

  it("accepts the bare {meta, data} form and odd field types", () => {
    const doc = {
      meta: {},
      data: {
        posts: [
          {
            id: "a",
            title: 7,
            html: null,
            plaintext: "plain",
            lexical: "{}",
            status: "published",
            published_at: "nope",
          },
          { id: "a", title: "twice" },
          { title: "no id" },
          "not a row",
        ],
        tags: "not a list",
        posts_tags: [{ post_id: "a", tag_id: { x: 1 } }],
      },
    };
    expect(isGhostExport(doc)).toBe(true);
    const read = readGhostExport(doc);
    expect(read.posts).toHaveLength(1);
    expect(read.posts[0]).toMatchObject({ status: "published", publishedAt: null, slug: null, tags: [] });
    expect(read.posts[0]?.translations[0]).toMatchObject({ title: "a", bodyMarkdown: "plain" });
    expect(read.problems.map((p) => p.reason)).toEqual(["ghostDuplicateId", "ghostNoId"]);
  });

  it("refuses what is not a Ghost export, too large, or hostile JSON, without crashing", async () => {
    expect(() => parseGhostJson("{not json")).toThrow(SourceRefused);
    expect(() => parseGhostJson('{"db":[{"data":{}}]}')).toThrow(/not a Ghost export/);
    expect(() => parseGhostJson("[]")).toThrow(SourceRefused);
    const deep = `{"db":[{"data":{"posts":[${"[".repeat(200_000)}${"]".repeat(200_000)}]}}]}`;
    expect(readGhostExport(parseGhostJson(deep)).posts).toEqual([]);
    const dir = await mkdtemp(path.join(os.tmpdir(), "ghost-"));
    try {
      const big = path.join(dir, "big.json");
      await writeFile(big, "");
      await truncate(big, GHOST_FILE_MAX_BYTES + 1);
      await expect(loadGhostExport(big)).rejects.toThrow(/larger than 100 MB/);
      await expect(loadGhostExport(path.join(dir, "missing.json"))).rejects.toThrow(SourceRefused);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("points Ghost image addresses at the original file", () => {
    expect(ghostImageRef("__GHOST_URL__/content/images/size/w600/format/webp/2024/01/a.jpg")).toBe(
      "/content/images/2024/01/a.jpg",
    );
    expect(ghostImageRef("https://cdn.test/x.jpg")).toBe("https://cdn.test/x.jpg");
  });
});

describe("streamGhostExport", () => {
  it("makes the same posts as reading the whole export, in batches, with the same problems", async () => {
    for (const file of [
      FIXTURE,
      path.resolve(import.meta.dirname, "../../../tests/fixtures/ghost/authors-lexical.json"),
    ]) {
      const whole = readGhostExport(await loadGhostExport(file));
      const streamed: ImportedPost[] = [];
      const summary = await streamGhostExport(file, {}, async (posts) => {
        streamed.push(...posts);
      });
      expect(streamed).toEqual(whole.posts);
      expect(summary.problems).toEqual(whole.problems);
      expect(summary.posts).toBe(whole.posts.length);
    }
  });

  it("refuses a file that is not JSON or not a Ghost export before handing anything on", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "inkwell-ghost-stream-"));
    try {
      const handed: ImportedPost[] = [];
      const onPosts = async (posts: ImportedPost[]) => {
        handed.push(...posts);
      };
      for (const [name, text, message] of [
        ["text.json", "hello", /not a JSON file/],
        ["other.json", '{"db":[{"data":{"tags":[]}}]}', /not a Ghost export/],
        ["cut.json", '{"db":[{"data":{"posts":[{"id":"a"}', /not a JSON file/],
      ] as const) {
        await writeFile(path.join(dir, name), text);
        await expect(streamGhostExport(path.join(dir, name), {}, onPosts), name).rejects.toThrow(message);
      }
      expect(handed).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
