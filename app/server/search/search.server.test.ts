import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { DB } from "../db/db.server.ts";
import type { NewPostInput } from "../posts/lifecycle.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { renderMarkdown } from "../render/markdown.server.ts";
import { reindexAll, reindexPost } from "./index.server.ts";
import { searchPosts } from "./search.server.ts";

let database: TestDatabase;
let db: DB;
const ids: Record<string, string> = {};

const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();

type Translation = NewPostInput["translations"][number];

/** A translation stored as the editor stores it: the Markdown rendered to HTML. */
function version(locale: "en" | "zh", title: string, summary: string, markdown: string): Translation {
  return { locale, title, summary, bodyMarkdown: markdown, bodyHtml: renderMarkdown(markdown) };
}

async function post(
  key: string,
  translations: Translation[],
  opts: { status?: "draft" | "published" | "scheduled"; publishedAt?: string } = {},
): Promise<string> {
  const id = await createPost(db, {
    slug: key,
    authorId: null,
    status: opts.status ?? "published",
    publishedAt: opts.publishedAt ?? day(1),
    translations,
  });
  await reindexPost(db, id);
  ids[key] = id;
  return id;
}

const search = (q: string, locale: "en" | "zh" = "en", page = 1, pageSize = 10) =>
  searchPosts(db, { q, locale, page, pageSize });
const found = async (q: string, locale: "en" | "zh" = "en") => (await search(q, locale)).items.map((i) => i.id);

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await post("chinese", [
    version("zh", "中文搜索", "关于分词。", "我们在测试中文搜索功能。"),
    version("en", "Chinese search", "About word segmentation.", "We check that searching Chinese works."),
  ]);
  await post("separated", [version("zh", "杂记", "零散的字。", "测 和 试 分开写，还有测验试卷。")]);
  await post("title-hit", [version("en", "Kysely migrations", "Notes.", "How the schema changes.")], {
    publishedAt: day(2),
  });
  await post("body-hit", [version("en", "Databases", "Notes.", "A note that mentions kysely once.")], {
    publishedAt: day(3),
  });
  await post("summary-hit", [version("en", "Other", "Why kysely helps.", "Nothing here.")], {
    publishedAt: day(4),
  });
  await post("script", [
    version("en", "Unsafe <b>title</b>", "Escaping.", "The `<script>alert(1)</script>` tag is dangerous & fun."),
  ]);
  await post("operators", [
    version("en", "Operators", "Words.", "Either this or that, near the end, 100% done, it's a test_case."),
  ]);
  await post("draft", [version("en", "Secret kysely draft", "", "Draft body with kysely.")], {
    status: "draft",
  });
  await post("scheduled", [version("en", "Scheduled zeppelin", "", "Coming later.")], {
    status: "scheduled",
    publishedAt: day(40),
  });
  await post("trashed", [version("en", "Trashed kysely", "", "In the bin.")]);
  await db
    .updateTable("posts")
    .set({ deletedAt: day(5) })
    .where("id", "=", ids.trashed ?? "")
    .execute();
  await reindexPost(db, ids.trashed ?? "");
  for (let i = 1; i <= 23; i++) {
    await post(`page-${i}`, [version("en", `Paging ${i}`, "", "The word pagination appears here.")], {
      publishedAt: day(10 + i),
    });
  }
});

afterAll(async () => {
  await database.cleanup();
});

describe(`searchPosts (${testDialect()})`, () => {
  it("finds the Chinese post by a two-character word, not a post with its characters apart", async () => {
    expect(await found("测试", "zh")).toEqual([ids.chinese]);
    expect(await found("中文", "zh")).toEqual([ids.chinese]);
    expect(await found("测", "zh")).toEqual([ids.separated]);
  });

  it("finds an English word, case-insensitively", async () => {
    expect(await found("Segmentation")).toEqual([ids.chinese]);
    expect(await found("ZEPPELIN dangerous")).toEqual([]);
  });

  it("needs every word of the query", async () => {
    expect(await found("kysely schema")).toEqual([ids["title-hit"]]);
  });

  it("ranks a title match above a summary match above a body match", async () => {
    expect(await found("kysely")).toEqual([ids["title-hit"], ids["summary-hit"], ids["body-hit"]]);
  });

  it("shows the visitor's language when it matches, else the other one with a flag", async () => {
    const zh = await search("测试", "en");
    expect(zh.items.map((i) => [i.id, i.locale, i.isFallback, i.title])).toEqual([
      [ids.chinese, "zh", true, "中文搜索"],
    ]);
    const en = await search("segmentation", "zh");
    expect(en.items.map((i) => [i.locale, i.isFallback])).toEqual([["en", true]]);
    const own = await search("search chinese", "en");
    expect(own.items.map((i) => [i.locale, i.isFallback, i.title])).toEqual([["en", false, "Chinese search"]]);
  });

  it("highlights the matches in an escaped snippet", async () => {
    const [chinese] = (await search("测试", "zh")).items;
    expect(chinese?.snippetHtml).toBe("我们在<mark>测试</mark>中文搜索功能。");
    const [script] = (await search("dangerous")).items;
    expect(script?.title).toBe("Unsafe <b>title</b>");
    expect(script?.snippetHtml).toBe(
      "The &lt;script&gt;alert(1)&lt;/script&gt; tag is <mark>dangerous</mark> &amp; fun.",
    );
    expect(script?.snippetHtml.replace(/<\/?mark>/g, "")).not.toMatch(/[<>]/);
  });

  it("treats quotes, wildcards and FTS operators as plain text, never as syntax", async () => {
    for (const q of [`'`, `%`, `_`, `"`, `*`, `-`, `:`, `^`, `(`, `NEAR(`, `OR`, `AND`, `NOT`, `"kysely`, `kys*`]) {
      const result = await search(q);
      for (const item of result.items) expect(item.snippetHtml).not.toContain("<script");
      if ([`'`, `%`, `_`, `"`, `*`, `-`, `:`, `^`, `(`].includes(q)) expect(result, q).toMatchObject({ total: 0 });
    }
    for (const q of ["\u0301", "ـ", "𝒳", "🙂", "\u0000", "a\u0000b", "\uD800", "ℌ𝔢𝔩𝔩𝔬"]) {
      await expect(search(q), JSON.stringify(q)).resolves.toMatchObject({ page: 1 });
    }
    // The words are matched literally: "or" and "near" are words of one post only.
    expect(await found("OR")).toEqual([ids.operators]);
    expect(await found("NEAR(")).toEqual([ids.operators]);
    expect(await found("NOT")).toEqual([]);
    // `*` is no prefix operator, `%` and `_` no wildcards.
    expect(await found("kys*")).toEqual([]);
    expect(await found("kysely*")).toHaveLength(3);
    expect(await found("100%")).toEqual([ids.operators]);
    expect(await found("test_case")).toEqual([ids.operators]);
    expect(await found("it's")).toEqual([ids.operators]);
    expect(await found(`"kysely" OR "anything"`)).toEqual([]);
    expect(await found("title:kysely")).toEqual([]);
  });

  it("never finds drafts, scheduled posts or trashed posts", async () => {
    expect(await found("secret")).toEqual([]);
    expect(await found("zeppelin")).toEqual([]);
    expect(await found("trashed")).toEqual([]);
  });

  it("finds a scheduled post as soon as it is published, without reindexing", async () => {
    await db
      .updateTable("posts")
      .set({ status: "published" })
      .where("id", "=", ids.scheduled ?? "")
      .execute();
    try {
      expect(await found("zeppelin")).toEqual([ids.scheduled]);
    } finally {
      await db
        .updateTable("posts")
        .set({ status: "scheduled" })
        .where("id", "=", ids.scheduled ?? "")
        .execute();
    }
  });

  it("paginates: 10 per page, the last page short, past it no items", async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((n) => search("pagination", "en", n)));
    expect(pages.map((p) => [p.items.length, p.total, p.pageCount, p.page])).toEqual([
      [10, 23, 3, 1],
      [10, 23, 3, 2],
      [3, 23, 3, 3],
      [0, 23, 3, 4],
    ]);
    const seen = pages.flatMap((p) => p.items.map((i) => i.title));
    expect(new Set(seen).size).toBe(23);
    // Equal scores: newest first.
    expect(seen.slice(0, 2)).toEqual(["Paging 23", "Paging 22"]);
  });

  it("ranks a bounded set of candidates: the newest matches and the newest title matches", async () => {
    // Indexed oldest first: one post with the word in its title, then five with it in the body.
    const titled = await post("quokka-title", [version("en", "Quokka days", "Notes.", "Small marsupials.")]);
    const bodies: string[] = [];
    for (let n = 1; n <= 5; n++) {
      bodies.push(await post(`quokka-${n}`, [version("en", `Island ${n}`, "Notes.", `A quokka seen on day ${n}.`)]));
    }
    // Both engines order candidates by the order their index rows were written.

    const all = await search("quokka");
    expect([all.total, all.capped]).toEqual([6, false]);

    const bounded = await searchPosts(db, { q: "quokka", locale: "en", page: 1, pageSize: 10, candidates: 3 });
    // The three newest body matches and the title match; the two oldest body matches are not ranked.
    expect([bounded.total, bounded.capped]).toEqual([4, true]);
    expect(bounded.items[0]?.id).toBe(titled);
    expect(new Set(bounded.items.slice(1).map((i) => i.id))).toEqual(new Set(bodies.slice(2)));

    // Exactly as many matches as candidates: everything is ranked, nothing is left out.
    const exact = await searchPosts(db, { q: "quokka", locale: "en", page: 1, pageSize: 10, candidates: 6 });
    expect([exact.total, exact.capped]).toEqual([6, false]);
    // A page past the end still says whether the count was capped.
    const past = await searchPosts(db, { q: "quokka", locale: "en", page: 5, pageSize: 10, candidates: 3 });
    expect([past.items.length, past.total, past.capped]).toEqual([0, 4, true]);

    // The index tests below count every row: these posts go again.
    await db
      .deleteFrom("posts")
      .where("id", "in", [titled, ...bodies])
      .execute();
    expect((await search("quokka")).total).toBe(0);
  });

  it("finds the newest matches across many index rows, and an edited post counts as new", async () => {
    // 1,400 posts written in order (about three of PostgreSQL's 512-row recency buckets):
    // "wombat" in every 100th body, "numbat" in every third.
    const n = 1_400;
    const key = (i: number) => `bulk-${String(i).padStart(4, "0")}`;
    const body = (i: number) => `post ${i}${i % 100 === 0 ? " wombat" : ""}${i % 3 === 0 ? " numbat" : ""}`;
    const now = day(100);
    for (let from = 1; from <= n; from += 200) {
      const batch = Array.from({ length: Math.min(200, n - from + 1) }, (_, k) => from + k);
      await db
        .insertInto("posts")
        .values(
          batch.map((i) => ({
            id: key(i),
            slug: key(i),
            authorId: null,
            status: "published" as const,
            publishedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
            categoryId: null,
            coverImageId: null,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await db
        .insertInto("postTranslations")
        .values(
          batch.map((i) => ({
            postId: key(i),
            locale: "en" as const,
            title: `Bulk ${i}`,
            summary: "",
            bodyMarkdown: body(i),
            bodyHtml: `<p>${body(i)}</p>`,
            seoTitle: null,
            seoDescription: null,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      // Written as reindexPost writes them, a batch at a time, oldest first.
      await db
        .insertInto("postSearch")
        .values(
          batch.map((i) => ({
            postId: key(i),
            locale: "en" as const,
            title: `bulk ${i}`,
            summary: "",
            body: body(i),
            updatedAt: now,
          })),
        )
        .execute();
    }
    // Ranked by score, which differs between the engines for body matches: compared as sets.
    const ranked = async (q: string, candidates: number) => {
      const page = await searchPosts(db, { q, locale: "en", page: 1, pageSize: 500, candidates });
      return { total: page.total, capped: page.capped, ids: new Set(page.items.map((item) => item.id)) };
    };
    const keys = (...numbers: number[]) => new Set(numbers.map(key));
    const wombats = Array.from({ length: 14 }, (_, k) => 1400 - 100 * k);

    try {
      expect(await ranked("wombat", 5)).toEqual({ total: 5, capped: true, ids: keys(1400, 1300, 1200, 1100, 1000) });
      expect(await ranked("wombat", 20)).toEqual({ total: 14, capped: false, ids: keys(...wombats) });
      // Only the newest 200 of 466 are ranked.
      const numbats = Array.from({ length: 200 }, (_, k) => 1398 - 3 * k);
      expect(await ranked("numbat", 200)).toEqual({ total: 200, capped: true, ids: keys(...numbats) });

      // Editing an old post writes its index rows anew: it is now among the newest matches.
      await reindexPost(db, key(100));
      expect(await ranked("wombat", 5)).toEqual({ total: 5, capped: true, ids: keys(100, 1400, 1300, 1200, 1100) });

      if (testDialect() === "postgres") {
        // Rows far older than the probed spans of recency buckets are still found, read at
        // once: the newest 300 rows are renumbered as if 40,000 more had been written since.
        await sql`update "postSearch" set "seq" = "seq" + 40000
          where "seq" > (select max("seq") - 300 from "postSearch")`.execute(db);
        expect(await ranked("wombat", 20)).toEqual({ total: 14, capped: false, ids: keys(...wombats) });
        expect(await ranked("wombat", 5)).toEqual({ total: 5, capped: true, ids: keys(100, 1400, 1300, 1200, 1100) });
      }
    } finally {
      // The index tests below count every row: these posts go again.
      await db.deleteFrom("posts").where("id", "like", "bulk-%").execute();
    }
    expect((await search("wombat")).total).toBe(0);
  }, 60_000);

  it("answers an empty page for a query with nothing searchable, without querying", async () => {
    expect(await search("   ")).toMatchObject({ items: [], total: 0, pageCount: 1, tokens: [] });
    expect(await search("！？")).toMatchObject({ items: [], total: 0, tokens: [] });
  });

  it("caps long queries instead of failing", async () => {
    const result = await search(`kysely ${"x".repeat(5000)} ${"word ".repeat(500)}`);
    expect(result.tokens.length).toBeLessThanOrEqual(12);
  });
});

describe(`reindexPost and reindexAll (${testDialect()})`, () => {
  const rowsOf = (postId: string) =>
    db.selectFrom("postSearch").select("locale").where("postId", "=", postId).orderBy("locale").execute();

  it("indexes every language version and replaces it on change", async () => {
    expect(await rowsOf(ids.chinese ?? "")).toEqual([{ locale: "en" }, { locale: "zh" }]);
    await db
      .updateTable("postTranslations")
      .set({ bodyHtml: "<p>now about gardening</p>" })
      .where("postId", "=", ids["body-hit"] ?? "")
      .execute();
    expect(await found("gardening")).toEqual([]);
    expect(await reindexPost(db, ids["body-hit"] ?? "")).toBe(1);
    expect(await found("gardening")).toEqual([ids["body-hit"]]);
    expect(await found("kysely")).not.toContain(ids["body-hit"]);
  });

  it("keeps drafts in the index and removes trashed posts", async () => {
    expect(await rowsOf(ids.draft ?? "")).toHaveLength(1);
    expect(await rowsOf(ids.trashed ?? "")).toHaveLength(0);
    expect(await reindexPost(db, "no-such-post")).toBe(0);
  });

  it("drops a deleted post's rows with it", async () => {
    const id = await post("to-delete", [version("en", "Ephemeral", "", "Gone soon.")]);
    expect(await found("ephemeral")).toEqual([id]);
    await db.deleteFrom("posts").where("id", "=", id).execute();
    expect(await rowsOf(id)).toEqual([]);
    expect(await found("ephemeral")).toEqual([]);
  });

  it("rebuilds the whole index", async () => {
    await db.deleteFrom("postSearch").execute();
    expect(await found("kysely")).toEqual([]);
    const result = await reindexAll(db, { batchSize: 7 });
    expect(result.posts).toBe(33);
    expect(result.rows).toBe(33); // 32 posts with one version, one with two, the trashed one none
    expect(await found("kysely")).toEqual([ids["title-hit"], ids["summary-hit"]]);
    expect(await found("测试", "zh")).toEqual([ids.chinese]);
  });

  it("keeps the database's own index in step with the table", async () => {
    if (testDialect() === "sqlite") {
      // FTS5 checks its index against the content table, and throws when they differ.
      await sql`insert into "postSearchFts" ("postSearchFts", "rank") values ('integrity-check', 1)`.execute(db);
      const fts = await sql<{ n: number }>`select count(*) as "n" from "postSearchFts"`.execute(db);
      expect(Number(fts.rows[0]?.n)).toBe(33);
    } else {
      const empty = await sql<{ n: string }>`select count(*) as "n" from "postSearch"
        where "searchVector" = ''::tsvector and "title" <> ''`.execute(db);
      expect(Number(empty.rows[0]?.n)).toBe(0);
    }
  });
});
