import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { handleBase } from "../../lib/author-profile.ts";
import { migrateDown, migrateToLatest, migrationStatus } from "../db/migrate.server.ts";
import { latestPostsInLocale, sitemapTerms } from "../feeds/discovery.server.ts";
import { createPost, listPublishedPosts } from "../posts/posts.server.ts";
import { ensureHandle, findProfileByHandle, getOwnProfile, updateProfile } from "./profiles.server.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("handleBase", () => {
  it("makes a lowercase ASCII handle of the name, else one of the id", () => {
    expect(handleBase("  Ada Lovelace ", "x")).toBe("ada-lovelace");
    expect(handleBase("Zoë O'Brien", "x")).toBe("zoe-o-brien");
    expect(handleBase("王小明", "0123456789abcdefghjk")).toBe("author-efghjk");
    expect(handleBase("a".repeat(60), "x")).toHaveLength(30);
  });
});

describe(`profiles (${testDialect()})`, () => {
  it("gives each account a unique handle once, kept when the name changes", async () => {
    const a = await insertUser(database.db, { email: "ada1@example.test", name: "Ada" });
    const b = await insertUser(database.db, { email: "ada2@example.test", name: "ada" });
    expect(await ensureHandle(database.db, a)).toBe("ada");
    expect(await ensureHandle(database.db, b)).toBe("ada-2");
    await updateProfile(database.db, a, { name: "Countess", bio: "Notes on engines." });
    expect(await ensureHandle(database.db, a)).toBe("ada");
    expect(await getOwnProfile(database.db, a)).toMatchObject({
      name: "Countess",
      handle: "ada",
      bio: "Notes on engines.",
    });
    expect(await findProfileByHandle(database.db, "ADA")).toMatchObject({ id: a, name: "Countess" });
    expect(await findProfileByHandle(database.db, "nobody")).toBeNull();
  });

  it("hides a banned person's profile", async () => {
    const id = await insertUser(database.db, { email: "banned@example.test", name: "Banned Person" });
    const handle = await ensureHandle(database.db, id);
    await database.db.updateTable("users").set({ banned: 1 }).where("id", "=", id).execute();
    expect(await findProfileByHandle(database.db, handle ?? "")).toBeNull();
  });

  it("lists and feeds only the author's published posts", async () => {
    const author = await insertUser(database.db, { email: "writer@example.test", name: "Writer" });
    const other = await insertUser(database.db, { email: "other@example.test", name: "Other" });
    const post = (authorId: string, slug: string, status: "published" | "draft" = "published") =>
      createPost(database.db, {
        slug,
        authorId,
        status,
        publishedAt: "2026-10-01T08:00:00.000Z",
        translations: [{ locale: "en", title: slug }],
      });
    const mine = await post(author, "mine");
    await post(author, "mine-draft", "draft");
    await post(other, "theirs");
    const page = await listPublishedPosts(database.db, { locale: "en", page: 1, pageSize: 10, authorId: author });
    expect(page.items.map((p) => p.id)).toEqual([mine]);
    expect(page.total).toBe(1);
    const feed = await latestPostsInLocale(database.db, "en", 20, { authorId: author });
    expect(feed.map((p) => p.id)).toEqual([mine]);

    // The sitemap lists the author page of someone with a public post, and nobody else's.
    const drafter = await insertUser(database.db, { email: "drafter@example.test", name: "Drafter" });
    await post(drafter, "only-a-draft", "draft");
    for (const id of [author, other, drafter]) await ensureHandle(database.db, id);
    const { authors } = await sitemapTerms(database.db);
    expect(authors.map((a) => a.handle)).toEqual(expect.arrayContaining(["writer", "other"]));
    expect(authors.map((a) => a.handle)).not.toContain("drafter");
  });
});

describe(`the profile migration (${testDialect()})`, () => {
  it("keeps the names readers saw and gives every account a handle", async () => {
    const db = await createTestDatabase();
    try {
      // Back to before 20261126T143000 (however many migrations came after it), with
      // accounts named the old way.
      const profileMigration = "20261126T143000_add_user_profile";
      while ((await migrationStatus(db.db)).applied.includes(profileMigration)) await migrateDown(db.db);
      const now = "2026-11-01T00:00:00.000Z";
      const rows = [
        { id: "u1aaaaaaaaaaaaaaaaaa", name: "", email: "grace.hopper@example.test" },
        { id: "u2aaaaaaaaaaaaaaaaaa", name: "alan@example.test", email: "alan@example.test" },
        { id: "u3aaaaaaaaaaaaaaaaaa", name: "Grace Hopper", email: "gh@example.test" },
        { id: "u4aaaaaaaaaaaaaaaaaa", name: "王小明", email: "wang@example.test" },
      ];
      for (const [i, r] of rows.entries()) {
        await db.db
          .insertInto("users")
          .values({ ...r, emailVerified: 1, image: null, createdAt: `2026-11-0${i + 1}T00:00:00.000Z`, updatedAt: now })
          .execute();
      }
      await migrateToLatest(db.db);
      const after = await db.db.selectFrom("users").select(["id", "name", "handle"]).orderBy("createdAt").execute();
      expect(after).toEqual([
        { id: "u1aaaaaaaaaaaaaaaaaa", name: "grace.hopper", handle: "grace-hopper" },
        { id: "u2aaaaaaaaaaaaaaaaaa", name: "alan", handle: "alan" },
        { id: "u3aaaaaaaaaaaaaaaaaa", name: "Grace Hopper", handle: "grace-hopper-2" },
        { id: "u4aaaaaaaaaaaaaaaaaa", name: "王小明", handle: "author-aaaaaa" },
      ]);
    } finally {
      await db.cleanup();
    }
  });
});
