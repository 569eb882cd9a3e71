import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRawPost } from "../../../tests/setup/raw-post.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { forgetPostCounts } from "./post-counts.server.ts";
import { createPost, listPublishedPosts } from "./posts.server.ts";

let database: TestDatabase;

const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  // 12 published bilingual posts, one English-only, one Chinese-only, one draft, one scheduled.
  for (let i = 1; i <= 12; i++) {
    await createPost(db, {
      slug: `post-${i}`,
      authorId: null,
      status: "published",
      publishedAt: day(i),
      translations: [
        { locale: "en", title: `Post ${i}`, summary: `Summary ${i}` },
        { locale: "zh", title: `文章 ${i}`, summary: `摘要 ${i}` },
      ],
    });
  }
  await createPost(db, {
    slug: "english-only",
    authorId: null,
    status: "published",
    publishedAt: day(20),
    translations: [{ locale: "en", title: "English only" }],
  });
  await createPost(db, {
    slug: "chinese-only",
    authorId: null,
    status: "published",
    publishedAt: day(21),
    translations: [{ locale: "zh", title: "只有中文" }],
  });
  await createPost(db, {
    slug: "draft",
    authorId: null,
    status: "draft",
    publishedAt: null,
    translations: [{ locale: "en", title: "Secret draft" }],
  });
  await createPost(db, {
    slug: "scheduled",
    authorId: null,
    status: "scheduled",
    publishedAt: day(30),
    translations: [{ locale: "en", title: "Scheduled" }],
  });
});

afterAll(async () => {
  await database.cleanup();
});

describe("listPublishedPosts", () => {
  it("lists only published posts, newest first, with the total", async () => {
    const page = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 10 });
    expect(page.total).toBe(14);
    expect(page.pageCount).toBe(2);
    expect(page.items).toHaveLength(10);
    expect(page.items.map((p) => p.slug).slice(0, 3)).toEqual(["chinese-only", "english-only", "post-12"]);
    const titles = page.items.map((p) => p.title);
    expect(titles).not.toContain("Secret draft");
    expect(titles).not.toContain("Scheduled");
  });

  it("shows the visitor's language and falls back to the other with a flag", async () => {
    const en = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 3 });
    expect(en.items.map((p) => [p.title, p.locale, p.isFallback])).toEqual([
      ["只有中文", "zh", true],
      ["English only", "en", false],
      ["Post 12", "en", false],
    ]);
    const zh = await listPublishedPosts(database.db, { locale: "zh", page: 1, pageSize: 3 });
    expect(zh.items.map((p) => [p.title, p.locale, p.isFallback])).toEqual([
      ["只有中文", "zh", false],
      ["English only", "en", true],
      ["文章 12", "zh", false],
    ]);
    expect(zh.items[2]?.summary).toBe("摘要 12");
  });

  it("pages through without overlap or gaps", async () => {
    const first = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 5 });
    const second = await listPublishedPosts(database.db, { locale: "en", page: 2, pageSize: 5 });
    const third = await listPublishedPosts(database.db, { locale: "en", page: 3, pageSize: 5 });
    const ids = [...first.items, ...second.items, ...third.items].map((p) => p.id);
    expect(new Set(ids).size).toBe(14);
    expect(third.items).toHaveLength(4);
  });

  it("starts a deep page from a kept anchor and finds the posts a plain OFFSET finds", async () => {
    const { db } = database;
    forgetPostCounts(db);
    const ids = (page: { items: { id: string }[] }) => page.items.map((p) => p.id);
    for (const pageSize of [1, 2, 3, 5]) {
      for (let page = 1; page <= Math.ceil(14 / pageSize) + 1; page++) {
        const plain = await listPublishedPosts(db, { locale: "en", page, pageSize });
        const anchored = await listPublishedPosts(db, {
          locale: "en",
          page,
          pageSize,
          cachedTotal: true,
          anchorEvery: 4,
        });
        expect(ids(anchored), `page ${page} of ${pageSize}`).toEqual(ids(plain));
        expect(anchored.total).toBe(14);
      }
    }

    // The anchors are keys, not positions: a post written behind the kept counts' back
    // (not through createPost) shifts a plain OFFSET page by one, not an anchored one.
    const before = ids(
      await listPublishedPosts(db, { locale: "en", page: 3, pageSize: 4, cachedTotal: true, anchorEvery: 4 }),
    );
    const newest = await insertRawPost(db, {
      slug: "behind-the-back",
      authorId: null,
      status: "published",
      publishedAt: day(30),
      translations: [{ locale: "en", title: "Newest" }],
    });
    try {
      const plain = ids(await listPublishedPosts(db, { locale: "en", page: 3, pageSize: 4 }));
      const anchored = ids(
        await listPublishedPosts(db, { locale: "en", page: 3, pageSize: 4, cachedTotal: true, anchorEvery: 4 }),
      );
      expect(anchored).toEqual(before);
      expect(plain).not.toEqual(before);
      expect(plain.slice(1)).toEqual(before.slice(0, 3));
    } finally {
      await db.deleteFrom("postTranslations").where("postId", "=", newest).execute();
      await db.deleteFrom("posts").where("id", "=", newest).execute();
      forgetPostCounts(db);
    }
  });

  it("keeps plain OFFSETs while a published post has no date", async () => {
    const { db } = database;
    const undated = await createPost(db, {
      slug: "undated",
      authorId: null,
      status: "published",
      publishedAt: null,
      translations: [{ locale: "en", title: "Undated" }],
    });
    try {
      for (let page = 1; page <= 6; page++) {
        const plain = await listPublishedPosts(db, { locale: "en", page, pageSize: 3 });
        const anchored = await listPublishedPosts(db, {
          locale: "en",
          page,
          pageSize: 3,
          cachedTotal: true,
          anchorEvery: 4,
        });
        expect(
          anchored.items.map((p) => p.id),
          `page ${page}`,
        ).toEqual(plain.items.map((p) => p.id));
      }
    } finally {
      await db.deleteFrom("postTranslations").where("postId", "=", undated).execute();
      await db.deleteFrom("posts").where("id", "=", undated).execute();
      forgetPostCounts(db);
    }
  });

  it("counts a post created through createPost at once, though totals are kept", async () => {
    const { db } = database;
    const total = async () =>
      (await listPublishedPosts(db, { locale: "en", page: 1, pageSize: 5, cachedTotal: true })).total;
    expect(await total()).toBe(14);
    const id = await createPost(db, {
      slug: "counted-at-once",
      authorId: null,
      status: "published",
      publishedAt: day(31),
      translations: [{ locale: "en", title: "Counted" }],
    });
    try {
      expect(await total()).toBe(15);
    } finally {
      await db.deleteFrom("postTranslations").where("postId", "=", id).execute();
      await db.deleteFrom("posts").where("id", "=", id).execute();
      forgetPostCounts(db);
    }
  });

  it("returns an empty page past the end (the route decides the 404)", async () => {
    const page = await listPublishedPosts(database.db, { locale: "en", page: 1_000_000_000, pageSize: 10 });
    expect(page.items).toEqual([]);
    expect(page.total).toBe(14);
  });
});

describe("createPost", () => {
  it("writes nothing when a translation is invalid (one transaction)", async () => {
    const before = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 100 });
    await expect(
      createPost(database.db, {
        slug: "half-written",
        authorId: null,
        status: "published",
        publishedAt: day(25),
        translations: [
          { locale: "en", title: "First" },
          { locale: "en", title: "Duplicate locale violates the primary key" },
        ],
      }),
    ).rejects.toThrow();
    const after = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 100 });
    expect(after.total).toBe(before.total);
    const row = await database.db.selectFrom("posts").where("slug", "=", "half-written").selectAll().executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("refuses a duplicate slug", async () => {
    await expect(
      createPost(database.db, {
        slug: "post-1",
        authorId: null,
        status: "draft",
        publishedAt: null,
        translations: [{ locale: "en", title: "Again" }],
      }),
    ).rejects.toThrow();
  });

  it("refuses a post with no translation", async () => {
    await expect(
      createPost(database.db, { slug: "empty", authorId: null, status: "draft", publishedAt: null, translations: [] }),
    ).rejects.toThrow(/at least one translation/);
  });
});
