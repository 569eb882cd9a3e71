import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRawPost } from "../../../tests/setup/raw-post.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { latestPostsInLocale, sitemapData } from "../feeds/discovery.server.ts";
import { cachedCategoryPostCounts } from "../taxonomy/popular-categories.server.ts";
import { categoryPostCounts, createCategory, ensureTags, pickPopularCategories } from "../taxonomy/taxonomy.server.ts";
import type { NewPostInput } from "./lifecycle.server.ts";
import { forgetPostCounts } from "./post-counts.server.ts";
import { createPost, listPublishedPosts } from "./posts.server.ts";

let database: TestDatabase;
const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();
const ids: Record<string, string> = {};
let cat: Record<"code" | "food" | "trips" | "empty" | "apples" | "zebras", string>;
let tag: Record<"ts" | "noodles" | "unused", string>;

async function post(
  slug: string,
  n: number,
  opts: {
    categoryId?: string | null;
    tagIds?: string[];
    status?: "published" | "draft" | "scheduled";
    locales?: Array<"en" | "zh">;
    cover?: string;
    /** Written straight into the tables, as another process would: the kept counts are not told. */
    unannounced?: boolean;
  } = {},
) {
  const write = (input: NewPostInput) =>
    opts.unannounced ? insertRawPost(database.db, input) : createPost(database.db, input);
  ids[slug] = await write({
    slug,
    authorId: null,
    status: opts.status ?? "published",
    publishedAt: opts.status === "draft" ? null : day(n),
    categoryId: opts.categoryId ?? null,
    tagIds: opts.tagIds ?? [],
    coverImageUrl: opts.cover ?? null,
    coverAlt: opts.cover ? `Cover of ${slug}` : "",
    translations: (opts.locales ?? ["en", "zh"]).map((locale) => ({
      locale,
      title: locale === "en" ? `EN ${slug}` : `中文 ${slug}`,
      summary: locale === "en" ? `About ${slug}` : `关于 ${slug}`,
      bodyHtml: `<p>${slug}</p>`,
    })),
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  const make = (slug: string, nameEn: string, nameZh: string) => createCategory(db, { slug, nameEn, nameZh });
  cat = {
    code: await make("code", "Code", "编程"),
    food: await make("food", "Food", "美食"),
    trips: await make("trips", "Trips", "旅行"),
    empty: await make("empty", "Empty", "空"),
    apples: await make("apples", "Apples", "苹果"),
    zebras: await make("zebras", "Zebras", "斑马"),
  };
  const [ts, noodles, unused] = await ensureTags(db, ["TypeScript", "Noodles", "Unused"]);
  tag = { ts: ts ?? "", noodles: noodles ?? "", unused: unused ?? "" };
  await db.updateTable("tags").set({ nameZh: "面条" }).where("id", "=", tag.noodles).execute();

  // code: 4 published (+ a draft, a scheduled one and one in the trash, which never count)
  for (let i = 1; i <= 4; i++) await post(`code-${i}`, i, { categoryId: cat.code, tagIds: i % 2 ? [tag.ts] : [] });
  await post("code-draft", 5, { categoryId: cat.code, status: "draft", tagIds: [tag.ts] });
  await post("code-scheduled", 6, { categoryId: cat.code, status: "scheduled", tagIds: [tag.ts] });
  await post("code-trashed", 7, { categoryId: cat.code, tagIds: [tag.ts] });
  await db
    .updateTable("posts")
    .set({ deletedAt: day(8) })
    .where("id", "=", ids["code-trashed"] ?? "")
    .execute();
  // food: 3, one English-only and one Chinese-only, one with a cover; noodles on two
  await post("food-1", 10, { categoryId: cat.food, tagIds: [tag.noodles, tag.ts], cover: "/social.jpg" });
  await post("food-2", 11, { categoryId: cat.food, tagIds: [tag.noodles], locales: ["en"] });
  await post("food-3", 12, { categoryId: cat.food, locales: ["zh"] });
  // trips, apples and zebras: 1 each (a tie broken by name); empty has none published
  await post("trips-1", 13, { categoryId: cat.trips });
  await post("apples-1", 14, { categoryId: cat.apples });
  await post("zebras-1", 15, { categoryId: cat.zebras });
  await post("empty-draft", 16, { categoryId: cat.empty, status: "draft" });
  await post("loose", 17);
});

afterAll(async () => {
  await database.cleanup();
});

describe("listPublishedPosts with a category or tag", () => {
  it("lists a category's published posts only, newest first, with the count", async () => {
    const page = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 10, categoryId: cat.code });
    expect(page.items.map((p) => p.slug)).toEqual(["code-4", "code-3", "code-2", "code-1"]);
    expect(page.total).toBe(4);
    expect(page.pageCount).toBe(1);
  });

  it("pages a category like the home page, and is empty past the end", async () => {
    const first = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 3, categoryId: cat.code });
    const second = await listPublishedPosts(database.db, { locale: "en", page: 2, pageSize: 3, categoryId: cat.code });
    expect(first.pageCount).toBe(2);
    expect([...first.items, ...second.items].map((p) => p.slug)).toEqual(["code-4", "code-3", "code-2", "code-1"]);
    const past = await listPublishedPosts(database.db, { locale: "en", page: 3, pageSize: 3, categoryId: cat.code });
    expect(past.items).toEqual([]);
  });

  it("lists a tag's published posts across categories (EXISTS on postTags)", async () => {
    const page = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 10, tagId: tag.ts });
    expect(page.items.map((p) => p.slug)).toEqual(["food-1", "code-3", "code-1"]);
    expect(page.total).toBe(3);
    // Both filters: counted the same way as listed (the draft, scheduled and trashed ones never).
    const both = await listPublishedPosts(database.db, {
      locale: "en",
      page: 1,
      pageSize: 1,
      tagId: tag.ts,
      categoryId: cat.code,
    });
    expect(both.items.map((p) => p.slug)).toEqual(["code-3"]);
    expect([both.total, both.pageCount]).toEqual([2, 2]);
    const noodles = await listPublishedPosts(database.db, { locale: "zh", page: 1, pageSize: 10, tagId: tag.noodles });
    expect(noodles.items.map((p) => [p.slug, p.isFallback])).toEqual([
      ["food-2", true],
      ["food-1", false],
    ]);
  });

  it("gives an empty page for a category or tag without published posts", async () => {
    const empty = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 10, categoryId: cat.empty });
    expect(empty).toMatchObject({ items: [], total: 0, pageCount: 1 });
    const unused = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 10, tagId: tag.unused });
    expect(unused).toMatchObject({ items: [], total: 0 });
  });

  it("carries the category and the tags in the visitor's language, and the cover", async () => {
    const en = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 10, categoryId: cat.food });
    const food1 = en.items.find((p) => p.slug === "food-1");
    expect(food1?.category).toEqual({ id: cat.food, slug: "food", name: "Food" });
    expect(food1?.tags.map((t) => t.name)).toEqual(["Noodles", "TypeScript"]);
    expect(food1?.coverImageUrl).toBe("/social.jpg");
    expect(food1?.coverAlt).toBe("Cover of food-1");
    const zh = await listPublishedPosts(database.db, { locale: "zh", page: 1, pageSize: 10, categoryId: cat.food });
    const zhFood1 = zh.items.find((p) => p.slug === "food-1");
    expect(zhFood1?.category?.name).toBe("美食");
    // A tag without a Chinese name of its own shows the one it has.
    expect(zhFood1?.tags.map((t) => t.name)).toEqual(["面条", "TypeScript"]);
    expect(zh.items.find((p) => p.slug === "food-3")?.coverImageUrl).toBeNull();
  });

  it("has no category and no tags on a post without them", async () => {
    const page = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 1 });
    expect(page.items[0]).toMatchObject({ slug: "loose", category: null, tags: [] });
  });
});

describe("popular categories", () => {
  it("counts only published posts that are not in the trash", async () => {
    const counts = await categoryPostCounts(database.db);
    const bySlug = Object.fromEntries(counts.map((c) => [c.slug, c.postCount]));
    expect(bySlug).toEqual({ code: 4, food: 3, trips: 1, apples: 1, zebras: 1 });
  });

  it("picks the four with the most posts, ties by name in the visitor's language", async () => {
    const counts = await categoryPostCounts(database.db);
    expect(pickPopularCategories(counts, "en").map((c) => c.name)).toEqual(["Code", "Food", "Apples", "Trips"]);
    // Chinese collation orders by pinyin: 斑马 (bānmǎ), 旅行 (lǚxíng), 苹果 (píngguǒ).
    expect(pickPopularCategories(counts, "zh").map((c) => c.name)).toEqual(["编程", "美食", "斑马", "旅行"]);
    expect(pickPopularCategories([], "en")).toEqual([]);
  });

  it("is cached for a short while in the process", async () => {
    const { db } = database;
    forgetPostCounts(db);
    const t0 = 1_000_000;
    const before = await cachedCategoryPostCounts(db, t0);
    await post("trips-2", 18, { categoryId: cat.trips, unannounced: true });
    const cached = await cachedCategoryPostCounts(db, t0 + 29_000);
    expect(cached).toBe(before);
    const fresh = await cachedCategoryPostCounts(db, t0 + 31_000);
    expect(fresh.find((c) => c.slug === "trips")?.postCount).toBe(2);
    await db
      .deleteFrom("postTags")
      .where("postId", "=", ids["trips-2"] ?? "")
      .execute();
    await db
      .deleteFrom("postTranslations")
      .where("postId", "=", ids["trips-2"] ?? "")
      .execute();
    await db
      .deleteFrom("posts")
      .where("id", "=", ids["trips-2"] ?? "")
      .execute();
    forgetPostCounts(db);
  });
});

describe("feed and sitemap reads", () => {
  it("gives the latest published posts that have the language, with terms", async () => {
    const en = await latestPostsInLocale(database.db, "en", 20);
    const slugs = en.map((p) => p.title);
    expect(slugs).toContain("EN food-2");
    expect(slugs).not.toContain("EN food-3"); // Chinese-only
    expect(slugs.some((s) => /draft|scheduled|trashed/.test(s))).toBe(false);
    expect(en[0]?.title).toBe("EN loose");
    const food1 = en.find((p) => p.title === "EN food-1");
    expect(food1?.category?.name).toBe("Food");
    expect(food1?.tags.map((t) => t.slug)).toEqual(["noodles", "typescript"]);
    expect(food1?.bodyHtml).toBe("<p>food-1</p>");
    const zh = await latestPostsInLocale(database.db, "zh", 3);
    expect(zh.map((p) => p.title)).toEqual(["中文 loose", "中文 zebras-1", "中文 apples-1"]);
  });

  it("lists every published post with its languages, and the terms that have posts", async () => {
    const data = await sitemapData(database.db);
    const posts = Object.fromEntries(data.posts.map((p) => [p.id, p.locales]));
    expect(posts[ids["food-2"] ?? ""]).toEqual(["en"]);
    expect(posts[ids["food-3"] ?? ""]).toEqual(["zh"]);
    expect(posts[ids["code-1"] ?? ""]).toEqual(["en", "zh"]);
    expect(posts[ids["code-draft"] ?? ""]).toBeUndefined();
    expect(posts[ids["code-trashed"] ?? ""]).toBeUndefined();
    expect(data.posts).toHaveLength(11);
    expect(data.categories.map((c) => c.slug)).toEqual(["apples", "code", "food", "trips", "zebras"]);
    expect(data.tags.map((t) => t.slug)).toEqual(["noodles", "typescript"]);
    expect(data.categories[0]?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
