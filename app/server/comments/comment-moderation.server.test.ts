import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertComment, insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import type { CommentStatus } from "../db/schema.server.ts";
import { createPost } from "../posts/posts.server.ts";
import {
  deleteComments,
  excerpt,
  getCommentsForModeration,
  listCommentsForModeration,
  moderationCounts,
  setCommentStatus,
} from "./comment-moderation.server.ts";

let database: TestDatabase;
let alice: string;
let postId: string;
let seconds = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  alice = await insertUser(database.db, { email: "alice@example.test", name: "Alice" });
  postId = await createPost(database.db, {
    slug: "moderated",
    authorId: null,
    status: "published",
    publishedAt: "2026-01-01T00:00:00.000Z",
    translations: [
      { locale: "en", title: "Moderated post" },
      { locale: "zh", title: "审核文章" },
    ],
  });
});
afterAll(async () => {
  await database.cleanup();
});

async function comment(status: CommentStatus, body = `Comment ${seconds}`, parentId: string | null = null) {
  seconds += 1;
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
  return insertComment(database.db, { postId, authorId: alice, parentId, body, status, at });
}

const statusOf = async (id: string) =>
  (await database.db.selectFrom("comments").select("status").where("id", "=", id).executeTakeFirst())?.status;

describe("comment moderation", () => {
  it("lists a status newest first with post title, e-mail and excerpt, and counts each status", async () => {
    const { db } = database;
    const p1 = await comment("pending", "first   pending\n\ncomment");
    await comment("approved");
    const p2 = await comment("pending", "x".repeat(300));
    await comment("spam");

    const list = await listCommentsForModeration(db, { status: "pending", page: 1, pageSize: 10, locale: "en" });
    expect(list.items.map((i) => i.id)).toEqual([p2, p1]);
    expect(list.items[1]).toMatchObject({
      postId,
      postTitle: "Moderated post",
      postPublic: true,
      authorEmail: "alice@example.test",
      authorName: "Alice",
      excerpt: "first pending comment",
      status: "pending",
    });
    expect(list.items[0]?.excerpt).toHaveLength(200);
    expect(list.counts).toEqual({ pending: 2, approved: 1, hidden: 0, spam: 1, all: 4 });
    const zh = await listCommentsForModeration(db, { status: "all", page: 1, pageSize: 10, locale: "zh" });
    expect(zh.total).toBe(4);
    expect(zh.items[0]?.postTitle).toBe("审核文章");

    const paged = await listCommentsForModeration(db, { status: "all", page: 2, pageSize: 3, locale: "en" });
    expect(paged).toMatchObject({ page: 2, pageCount: 2 });
    expect(paged.items).toHaveLength(1);
  });

  it("searches the text and the author's e-mail literally, oldest or newest first", async () => {
    const { db } = database;
    await db.deleteFrom("comments").execute();
    const a = await comment("pending", "100% agree");
    const b = await comment("pending", "100 reasons");
    const c = await comment("approved", "nothing to see");
    const find = (q: string, sort?: "newest" | "oldest") =>
      listCommentsForModeration(db, { status: "all", page: 1, pageSize: 10, locale: "en", q, sort });
    expect((await find("100%")).items.map((i) => i.id)).toEqual([a]);
    expect((await find("100%")).total).toBe(1);
    expect((await find("100", "oldest")).items.map((i) => i.id)).toEqual([a, b]);
    expect((await find("100", "newest")).items.map((i) => i.id)).toEqual([b, a]);
    expect((await find("ALICE@example")).items.map((i) => i.id)).toEqual([c, b, a]);
    expect((await find("_")).items).toEqual([]);
  });

  it("changes the status of exactly the given ids", async () => {
    const { db } = database;
    await db.deleteFrom("comments").execute();
    const a = await comment("pending");
    const b = await comment("pending");
    const c = await comment("pending");
    expect(await setCommentStatus(db, [a, b, a, "no-such-id"], "approved")).toBe(2);
    expect(await statusOf(a)).toBe("approved");
    expect(await statusOf(b)).toBe("approved");
    expect(await statusOf(c)).toBe("pending");
    expect(await setCommentStatus(db, [c], "spam")).toBe(1);
    expect(await setCommentStatus(db, [b], "hidden")).toBe(1);
    expect(await moderationCounts(db)).toEqual({ pending: 0, approved: 1, hidden: 1, spam: 1, all: 3 });
    expect(await setCommentStatus(db, [], "approved")).toBe(0);
  });

  it("deletes exactly the given ids and their replies", async () => {
    const { db } = database;
    await db.deleteFrom("comments").execute();
    const keep = await comment("approved");
    const gone = await comment("approved");
    const reply = await comment("approved", "reply", gone);
    const alsoGone = await comment("spam");
    expect((await getCommentsForModeration(db, [gone, alsoGone, "nope"])).map((r) => r.id).sort()).toEqual(
      [gone, alsoGone].sort(),
    );
    await deleteComments(db, [gone, alsoGone]);
    expect(await statusOf(keep)).toBe("approved");
    expect(await statusOf(gone)).toBeUndefined();
    expect(await statusOf(reply)).toBeUndefined();
    expect(await statusOf(alsoGone)).toBeUndefined();
    expect(await deleteComments(db, [])).toBe(0);
  });

  it("makes plain excerpts", () => {
    expect(excerpt("  a\n b  ")).toBe("a b");
    expect(excerpt("abcdef", 4)).toBe("abc…");
  });
});
