import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { createPost } from "../posts/posts.server.ts";
import {
  createCategory,
  deleteCategory,
  ensureTags,
  findCategoryBySlug,
  generateTermSlug,
  getTerm,
  listCategories,
  listTermsForAdmin,
  mergeTags,
  saveTerm,
  slugify,
  termName,
} from "./taxonomy.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("slugify", () => {
  it.each([
    ["Hello, World!", "hello-world"],
    ["  Crème brûlée  ", "creme-brulee"],
    ["测试", ""],
    ["React 19 与 测试", "react-19"],
  ])("%s → %s", (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });
});

describe("termName", () => {
  it("falls back to the other language when one name is empty", () => {
    expect(termName({ nameEn: "Travel", nameZh: "旅行" }, "zh")).toBe("旅行");
    expect(termName({ nameEn: "", nameZh: "旅行" }, "en")).toBe("旅行");
  });
});

describe("categories", () => {
  it("are listed by order and found by slug", async () => {
    const { db } = database;
    await createCategory(db, { slug: "zeta", nameEn: "Zeta", nameZh: "泽塔", sortOrder: 1 });
    await createCategory(db, { slug: "alpha", nameEn: "Alpha", nameZh: "阿尔法", sortOrder: 2 });
    expect((await listCategories(db)).map((c) => c.slug)).toEqual(["zeta", "alpha"]);
    expect((await findCategoryBySlug(db, "alpha"))?.nameZh).toBe("阿尔法");
    expect(await findCategoryBySlug(db, "nope")).toBeUndefined();
    await expect(createCategory(db, { slug: "alpha", nameEn: "A", nameZh: "A" })).rejects.toThrow();
  });
});

describe("ensureTags", () => {
  it("reuses tags by name in any case and creates the missing ones once", async () => {
    const { db } = database;
    const first = await ensureTags(db, ["TypeScript", "测试", " typescript "]);
    expect(first).toHaveLength(2);
    const again = await ensureTags(db, ["typescript", "测试", "Node"]);
    expect(again.slice(0, 2)).toEqual(first);
    expect(again).toHaveLength(3);
    const rows = await db.selectFrom("tags").select(["slug", "nameEn"]).orderBy("slug").execute();
    expect(rows.map((r) => r.slug)).toContain("typescript");
    expect(rows.find((r) => r.nameEn === "测试")?.slug).toMatch(/^t-/);
  });

  it("gives one tag when two callers create the same name at once", async () => {
    const { db } = database;
    const [a, b] = await Promise.all([ensureTags(db, ["Concurrency"]), ensureTags(db, ["Concurrency"])]);
    expect(a).toEqual(b);
    const n = await db
      .selectFrom("tags")
      .where("slug", "=", "concurrency")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });
});

describe("generateTermSlug", () => {
  it("spells the names, numbers a taken slug, and falls back to a short id", async () => {
    const { db } = database;
    const id = await createCategory(db, { slug: "shu-ji", nameEn: "书籍", nameZh: "书籍" });
    expect(await generateTermSlug(db, "category", ["Tours", "书籍"], null)).toBe("tours");
    // A homophone (or the same name) gets a number rather than a clash.
    expect(await generateTermSlug(db, "category", ["书籍"], null)).toBe("shu-ji-2");
    // The term being edited does not block its own slug.
    expect(await generateTermSlug(db, "category", ["书籍"], id)).toBe("shu-ji");
    expect(await generateTermSlug(db, "tag", ["书籍"], null)).toBe("shu-ji");
    expect(await generateTermSlug(db, "tag", ["？！", "…"], null)).toMatch(/^t-[0-9a-z]{8}$/);
  });
});

describe("admin term operations", () => {
  it("lists with search, sort and post counts; saves with a unique slug; deletes a category moving its posts", async () => {
    const { db } = database;
    const travel = await createCategory(db, { slug: "travel", nameEn: "Travel", nameZh: "旅行", sortOrder: 5 });
    const food = await createCategory(db, { slug: "food", nameEn: "Food 100%", nameZh: "美食", sortOrder: 6 });
    const post = (slug: string, categoryId: string) =>
      createPost(db, {
        slug,
        authorId: null,
        status: "published",
        publishedAt: nowIso(),
        categoryId,
        translations: [{ locale: "en", title: slug }],
      });
    const p1 = await post("trip-1", travel);
    await post("trip-2", travel);
    await post("meal-1", food);

    const byPosts = await listTermsForAdmin(db, "category", { sort: "posts", page: 1, pageSize: 50 });
    expect(byPosts.items[0]).toMatchObject({ slug: "travel", postCount: 2 });
    expect(
      (await listTermsForAdmin(db, "category", { q: "旅", page: 1, pageSize: 50 })).items.map((c) => c.slug),
    ).toEqual(["travel"]);
    // % is literal.
    expect(
      (await listTermsForAdmin(db, "category", { q: "100%", page: 1, pageSize: 50 })).items.map((c) => c.slug),
    ).toEqual(["food"]);
    // An unknown sort key falls back to the order.
    const fallback = await listTermsForAdmin(db, "category", { sort: "id; drop table posts", page: 1, pageSize: 50 });
    expect(fallback.total).toBeGreaterThanOrEqual(2);

    expect(
      await saveTerm(db, "category", food, { slug: "travel", nameEn: "F", nameZh: "F", description: "", sortOrder: 0 }),
    ).toEqual({
      ok: false,
      reason: "slugTaken",
    });
    expect(
      await saveTerm(db, "category", "missing", {
        slug: "nowhere",
        nameEn: "N",
        nameZh: "N",
        description: "",
        sortOrder: 0,
      }),
    ).toEqual({
      ok: false,
      reason: "notFound",
    });
    const created = await saveTerm(db, "category", null, {
      slug: "notes",
      nameEn: "Notes",
      nameZh: "笔记",
      description: "d",
      sortOrder: 1,
    });
    expect(created.ok).toBe(true);

    await db.transaction().execute((trx) => deleteCategory(trx, travel, food));
    expect(await getTerm(db, "category", travel)).toBeUndefined();
    const moved = await db.selectFrom("posts").select("categoryId").where("id", "=", p1).executeTakeFirstOrThrow();
    expect(moved.categoryId).toBe(food);
    expect((await getTerm(db, "category", food))?.postCount).toBe(3);
  });

  it("merges one tag into another without duplicate links", async () => {
    const { db } = database;
    const [js, javascript] = await ensureTags(db, ["JS", "JavaScript"]);
    if (!js || !javascript) throw new Error("tags missing");
    const both = await createPost(db, {
      slug: "both-tags",
      authorId: null,
      status: "published",
      publishedAt: nowIso(),
      tagIds: [js, javascript],
      translations: [{ locale: "en", title: "Both" }],
    });
    const onlyJs = await createPost(db, {
      slug: "only-js",
      authorId: null,
      status: "draft",
      publishedAt: null,
      tagIds: [js],
      translations: [{ locale: "en", title: "Only JS" }],
    });
    expect(await db.transaction().execute((trx) => mergeTags(trx, js, javascript))).toBe(true);
    expect(await getTerm(db, "tag", js)).toBeUndefined();
    const links = await db
      .selectFrom("postTags")
      .selectAll()
      .where("postId", "in", [both, onlyJs])
      .orderBy("postId")
      .execute();
    expect(links.map((l) => l.tagId)).toEqual([javascript, javascript]);
    expect((await getTerm(db, "tag", javascript))?.postCount).toBe(2);
    expect(await mergeTags(db, javascript, javascript)).toBe(false);
  });
});
