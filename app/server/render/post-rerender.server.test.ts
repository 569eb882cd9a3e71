import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { readContentVersion } from "../cache/content-version.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { searchPosts } from "../search/search.server.ts";
import { rerenderAllPosts } from "./post-rerender.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

/** A body stored by an older pipeline: a bare table, no heading ids, no code-block box. */
const OLD_HTML = "<h2>Old</h2><table><tr><td>cell</td></tr></table>";
const MARKDOWN = "## Fresh heading\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n";

describe("rerenderAllPosts", () => {
  it("renders every language version again from its Markdown, reindexes it, and leaves the edit time", async () => {
    const { db } = database;
    const id = await createPost(db, {
      slug: "old-markup",
      authorId: null,
      status: "published",
      publishedAt: "2025-01-01T00:00:00.000Z",
      translations: [
        { locale: "en", title: "Old", summary: "", bodyMarkdown: MARKDOWN, bodyHtml: OLD_HTML, tocJson: "[]" },
        { locale: "zh", title: "旧", summary: "", bodyMarkdown: MARKDOWN, bodyHtml: OLD_HTML, tocJson: "[]" },
      ],
    });
    // Nested deeper than any parser is allowed: kept as it was, and counted.
    await createPost(db, {
      slug: "too-deep",
      authorId: null,
      status: "draft",
      publishedAt: null,
      translations: [
        {
          locale: "en",
          title: "Deep",
          summary: "",
          bodyMarkdown: ">".repeat(500),
          bodyHtml: "<p>kept</p>",
          tocJson: "[]",
        },
      ],
    });
    const before = await db.selectFrom("posts").select("updatedAt").where("id", "=", id).executeTakeFirstOrThrow();
    const version = await readContentVersion(db);

    expect(await rerenderAllPosts(db, { batchSize: 1 })).toEqual({ posts: 2, versions: 2, skipped: 1 });

    const rows = await db
      .selectFrom("postTranslations")
      .select(["postId", "locale", "bodyHtml", "tocJson"])
      .orderBy("postId")
      .orderBy("locale")
      .execute();
    const zh = rows.find((r) => r.postId === id && r.locale === "zh");
    expect(zh?.bodyHtml).toContain('<h2 id="h-fresh-heading">');
    expect(zh?.bodyHtml).toContain('<div class="table-scroll" role="region" tabindex="0" aria-label="表格">');
    expect(zh?.bodyHtml).toContain(">复制</button>");
    expect(JSON.parse(zh?.tocJson ?? "[]")).toEqual([{ depth: 2, id: "h-fresh-heading", text: "Fresh heading" }]);
    expect(rows.find((r) => r.postId !== id)?.bodyHtml).toBe("<p>kept</p>");
    const after = await db.selectFrom("posts").select("updatedAt").where("id", "=", id).executeTakeFirstOrThrow();
    expect(after.updatedAt).toBe(before.updatedAt);
    // Searchable by its new text, and running servers are told the content changed.
    const found = await searchPosts(db, { q: "fresh", locale: "en", page: 1, pageSize: 10 });
    expect(found.items.map((i) => i.id)).toEqual([id]);
    expect(await readContentVersion(db)).toBeGreaterThan(version);
  });
});
