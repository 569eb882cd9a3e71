import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { createCategory, ensureTags } from "../taxonomy/taxonomy.server.ts";
import { changePost, getAdminPost, listPostAuthors, listPostsForAdmin, purgePost } from "./admin-posts.server.ts";
import { createPost } from "./posts.server.ts";

let database: TestDatabase;
let alice: string;
let bob: string;
let travel: string;
let food: string;
let tagRed = "";
const ids: Record<string, string> = {};

const page = { page: 1, pageSize: 20, locale: "en" as const };

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  alice = await insertUser(db, { email: "alice@example.test" });
  bob = await insertUser(db, { email: "bob@example.test", name: "Bob" });
  await insertUser(db, { email: "nobody@example.test" });
  travel = await createCategory(db, { slug: "travel", nameEn: "Travel", nameZh: "旅行" });
  food = await createCategory(db, { slug: "food", nameEn: "Food", nameZh: "美食" });
  tagRed = (await ensureTags(db, ["Red"]))[0] ?? "";
  ids.a = await createPost(db, {
    slug: "alpha-trip",
    authorId: alice,
    status: "published",
    publishedAt: "2026-01-01T00:00:00.000Z",
    categoryId: travel,
    tagIds: [tagRed],
    translations: [
      { locale: "en", title: "Alpha trip" },
      { locale: "zh", title: "阿尔法之旅" },
    ],
  });
  ids.b = await createPost(db, {
    slug: "beta-100-percent",
    authorId: bob,
    status: "draft",
    publishedAt: null,
    categoryId: food,
    translations: [{ locale: "zh", title: "贝塔 100%" }],
  });
  ids.c = await createPost(db, {
    slug: "gamma",
    authorId: bob,
    status: "scheduled",
    publishedAt: "2027-01-01T00:00:00.000Z",
    translations: [{ locale: "en", title: "Gamma soup" }],
  });
  await db
    .updateTable("posts")
    .set({ viewCount: 50 })
    .where("id", "=", ids.c as string)
    .execute();
});
afterAll(async () => {
  await database.cleanup();
});

const idsOf = (list: { items: Array<{ id: string }> }) => list.items.map((i) => i.id).sort();

describe("listPostsForAdmin", () => {
  it("lists every author's posts with titles in the reader's language and fallback", async () => {
    const list = await listPostsForAdmin(database.db, { ...page });
    expect(list.total).toBe(3);
    expect(idsOf(list)).toEqual([ids.a, ids.b, ids.c].sort());
    const b = list.items.find((i) => i.id === ids.b);
    expect(b?.title).toBe("贝塔 100%");
    expect(b?.authorName).toBe("Bob");
    // The list never carries an author's e-mail address.
    expect(JSON.stringify(list)).not.toContain("@example.test");
    const zh = await listPostsForAdmin(database.db, { ...page, locale: "zh" });
    expect(zh.items.find((i) => i.id === ids.a)?.title).toBe("阿尔法之旅");
  });

  it("searches both titles and the slug, with % literal", async () => {
    const { db } = database;
    expect(idsOf(await listPostsForAdmin(db, { ...page, q: "ALPHA" }))).toEqual([ids.a]);
    expect(idsOf(await listPostsForAdmin(db, { ...page, q: "阿尔法" }))).toEqual([ids.a]);
    expect(idsOf(await listPostsForAdmin(db, { ...page, q: "percent" }))).toEqual([ids.b]);
    expect(idsOf(await listPostsForAdmin(db, { ...page, q: "100%" }))).toEqual([ids.b]);
    expect((await listPostsForAdmin(db, { ...page, q: "%" })).total).toBe(1);
    expect((await listPostsForAdmin(db, { ...page, q: "_" })).total).toBe(0);
  });

  it("filters by status, category, tag and author", async () => {
    const { db } = database;
    expect(idsOf(await listPostsForAdmin(db, { ...page, status: "scheduled" }))).toEqual([ids.c]);
    expect(idsOf(await listPostsForAdmin(db, { ...page, categoryId: food }))).toEqual([ids.b]);
    expect(idsOf(await listPostsForAdmin(db, { ...page, tagId: tagRed }))).toEqual([ids.a]);
    expect(idsOf(await listPostsForAdmin(db, { ...page, authorId: bob }))).toEqual([ids.b, ids.c].sort());
    expect((await listPostsForAdmin(db, { ...page, authorId: bob, status: "published" })).total).toBe(0);
  });

  it("sorts from the allowlist only", async () => {
    const { db } = database;
    const order = async (sort: string) => (await listPostsForAdmin(db, { ...page, sort })).items.map((i) => i.slug);
    expect(await order("title")).toEqual(["alpha-trip", "gamma", "beta-100-percent"]);
    expect(await order("views")).toEqual(expect.arrayContaining(["gamma"]));
    expect((await order("views"))[0]).toBe("gamma");
    expect(await order("published")).toEqual(["gamma", "alpha-trip", "beta-100-percent"]);
    const fallback = await listPostsForAdmin(db, { ...page, sort: "nope; drop table posts" });
    expect(fallback.sort).toBe("updated");
    expect(fallback.total).toBe(3);
  });

  it("pages", async () => {
    const first = await listPostsForAdmin(database.db, { ...page, pageSize: 2, sort: "title" });
    const second = await listPostsForAdmin(database.db, { ...page, pageSize: 2, page: 2, sort: "title" });
    expect(first.pageCount).toBe(2);
    expect([...first.items, ...second.items].map((i) => i.slug)).toEqual(["alpha-trip", "gamma", "beta-100-percent"]);
    // Past the end: the last page.
    expect((await listPostsForAdmin(database.db, { ...page, pageSize: 2, page: 9 })).page).toBe(2);
  });

  it("lists authors with posts only, by the name readers see", async () => {
    // Alice chose no name: the list shows her as unnamed, never by her address.
    expect(await listPostAuthors(database.db)).toEqual([
      { id: alice, name: null },
      { id: bob, name: "Bob" },
    ]);
  });
});

const ADMIN = { id: null, email: "admin@example.test" };

describe("changePost", () => {
  it("publishes, unpublishes, schedules and features, bumping version and updatedAt each time", async () => {
    const { db } = database;
    const id = ids.b as string;
    const before = await getAdminPost(db, id);
    expect(before?.version).toBe(1);

    expect(await changePost(db, ADMIN, id, { kind: "publish" }, "2026-05-01T00:00:00.000Z")).toBe(true);
    let post = await getAdminPost(db, id);
    expect(post).toMatchObject({ status: "published", publishedAt: "2026-05-01T00:00:00.000Z", version: 2 });

    expect(await changePost(db, ADMIN, id, { kind: "unpublish" }, "2026-05-02T00:00:00.000Z")).toBe(true);
    post = await getAdminPost(db, id);
    expect(post).toMatchObject({ status: "draft", version: 3 });

    // Publishing again keeps the first publish time.
    await changePost(db, ADMIN, id, { kind: "publish" }, "2026-05-03T00:00:00.000Z");
    expect((await getAdminPost(db, id))?.publishedAt).toBe("2026-05-01T00:00:00.000Z");

    await changePost(db, ADMIN, id, { kind: "schedule", at: "2030-01-01T10:00:00.000Z" }, "2026-05-04T00:00:00.000Z");
    post = await getAdminPost(db, id);
    expect(post).toMatchObject({ status: "scheduled", publishedAt: "2030-01-01T10:00:00.000Z", version: 5 });

    // Publishing a scheduled post now publishes it now, not at its future time.
    await changePost(db, ADMIN, ids.c as string, { kind: "publish" }, "2026-05-04T12:00:00.000Z");
    expect((await getAdminPost(db, ids.c as string))?.publishedAt).toBe("2026-05-04T12:00:00.000Z");
    await changePost(db, ADMIN, ids.c as string, { kind: "schedule", at: "2027-01-01T00:00:00.000Z" });

    await changePost(db, ADMIN, id, { kind: "feature", featured: true }, "2026-05-05T00:00:00.000Z");
    post = await getAdminPost(db, id);
    expect(post).toMatchObject({ featured: true, version: 6 });
    const row = await db.selectFrom("posts").select("updatedAt").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.updatedAt).toBe("2026-05-05T00:00:00.000Z");
    await changePost(db, ADMIN, id, { kind: "feature", featured: false });
    expect((await getAdminPost(db, id))?.featured).toBe(false);
    // The other posts were not touched.
    expect((await getAdminPost(db, ids.a as string))?.version).toBe(1);
  });

  it("moves to the trash and back; trashed posts only show in the trash view", async () => {
    const { db } = database;
    const id = ids.a as string;
    expect(await changePost(db, ADMIN, id, { kind: "restore" })).toBe(false);
    expect(await changePost(db, ADMIN, id, { kind: "trash" }, "2026-06-01T00:00:00.000Z")).toBe(true);
    expect((await getAdminPost(db, id))?.deletedAt).toBe("2026-06-01T00:00:00.000Z");
    expect(idsOf(await listPostsForAdmin(db, { ...page }))).not.toContain(id);
    expect(idsOf(await listPostsForAdmin(db, { ...page, trash: true }))).toEqual([id]);
    // A trashed post takes no other change.
    expect(await changePost(db, ADMIN, id, { kind: "publish" })).toBe(false);
    expect(await changePost(db, ADMIN, id, { kind: "trash" })).toBe(false);
    const version = (await getAdminPost(db, id))?.version;

    expect(await changePost(db, ADMIN, id, { kind: "restore" })).toBe(true);
    const restored = await getAdminPost(db, id);
    expect(restored?.deletedAt).toBeNull();
    expect(restored?.version).toBe((version ?? 0) + 1);
    expect(idsOf(await listPostsForAdmin(db, { ...page, trash: true }))).toEqual([]);
  });

  it("deletes forever only from the trash, with translations and tags", async () => {
    const { db } = database;
    const id = ids.c as string;
    expect(await purgePost(db, ADMIN, id)).toBe(false);
    expect(await getAdminPost(db, id)).toBeDefined();
    await changePost(db, ADMIN, id, { kind: "trash" });
    expect(await purgePost(db, ADMIN, id)).toBe(true);
    expect(await getAdminPost(db, id)).toBeUndefined();
    const left = await db.selectFrom("postTranslations").select("postId").where("postId", "=", id).execute();
    expect(left).toEqual([]);
    expect(await purgePost(db, ADMIN, id)).toBe(false);
  });
});
