import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { type CommentRenderer, CommentTooComplex } from "./comment-renderer.server.ts";
import {
  commentLimitChecks,
  deleteComment,
  listComments,
  type SubmitCommentInput,
  submitComment,
} from "./comments.server.ts";

let database: TestDatabase;
let alice: string;
let bob: string;
let postId: string;
let counter = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  alice = await insertUser(database.db, { email: "alice@example.test", name: "Alice" });
  bob = await insertUser(database.db, { email: "bob.b@example.test" });
  postId = await newPost();
});
afterAll(async () => {
  await database.cleanup();
});

function newPost(status: "published" | "draft" | "scheduled" = "published"): Promise<string> {
  counter += 1;
  return createPost(database.db, {
    slug: `c-post-${counter}`,
    authorId: null,
    status,
    publishedAt: status === "draft" ? null : "2026-11-01T00:00:00.000Z",
    translations: [{ locale: "en", title: `Post ${counter}` }],
  });
}

async function comment(input: Partial<SubmitCommentInput> & { body: string }): Promise<string> {
  // Timestamps have millisecond resolution: keep "oldest first" unambiguous.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const result = await submitComment(database.db, {
    postId,
    authorId: alice,
    moderation: "auto",
    ...input,
  });
  if (!result.ok || !result.id) throw new Error(`not stored: ${JSON.stringify(result)}`);
  return result.id;
}

const count = async (id: string) =>
  (await database.db.selectFrom("comments").select("id").where("id", "=", id).execute()).length;
const total = async () => (await database.db.selectFrom("comments").select("id").execute()).length;

describe("submitComment", () => {
  it("stores sanitized HTML, approved at once in auto mode", async () => {
    const id = await comment({ body: "Nice **post**! <script>alert(1)</script> [x](javascript:alert(1))" });
    const row = await database.db
      .selectFrom("comments")
      .select(["bodyHtml", "bodyMarkdown", "status", "parentId", "authorId"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("approved");
    expect(row.parentId).toBeNull();
    expect(row.authorId).toBe(alice);
    expect(row.bodyHtml).toContain("<strong>post</strong>");
    expect(row.bodyHtml).not.toMatch(/<script|javascript:/i);
  });

  it("refuses an empty comment and one over 5000 characters", async () => {
    const before = await total();
    expect(await submitComment(database.db, { postId, authorId: alice, moderation: "auto", body: "  \n " })).toEqual({
      ok: false,
      error: "bodyRequired",
    });
    expect(
      await submitComment(database.db, { postId, authorId: alice, moderation: "auto", body: "x".repeat(5001) }),
    ).toEqual({ ok: false, error: "bodyTooLong" });
    expect(await total()).toBe(before);
    await comment({ body: "字".repeat(5000) });
  });

  it("allows at most 3 links, however they are written", async () => {
    const three = "[a](https://a.example) <https://b.example> https://c.example";
    await comment({ body: three });
    const before = await total();
    for (const body of [
      `${three} www.d.example`,
      `${three} [d](https://d.example)`,
      `${three}\n\n[d][r]\n\n[r]: https://d.example`,
    ]) {
      expect(await submitComment(database.db, { postId, authorId: alice, moderation: "auto", body })).toEqual({
        ok: false,
        error: "tooManyLinks",
      });
    }
    expect(await total()).toBe(before);
  });

  it("refuses a comment its renderer stops at the time budget, storing nothing", async () => {
    const before = await total();
    const stopped: CommentRenderer = {
      render: async () => {
        throw new CommentTooComplex(1);
      },
      close: async () => {},
    };
    const input = { postId, authorId: alice, moderation: "auto" as const, body: "- a\n".repeat(1250) };
    expect(await submitComment(database.db, input, stopped)).toEqual({ ok: false, error: "tooComplex" });
    expect(await total()).toBe(before);
  });

  it("pretends success and stores nothing when the honeypot is filled", async () => {
    const before = await total();
    const result = await submitComment(database.db, {
      postId,
      authorId: alice,
      moderation: "auto",
      body: "Buy now",
      honeypot: "https://spam.example",
    });
    expect(result).toEqual({ ok: true, id: null, status: "approved" });
    expect(await total()).toBe(before);
  });

  it("takes comments on published posts only", async () => {
    const draft = await newPost("draft");
    const scheduled = await newPost("scheduled");
    const trashed = await newPost();
    await database.db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", trashed).execute();
    for (const target of [draft, scheduled, trashed, "no-such-post"]) {
      expect(
        await submitComment(database.db, { postId: target, authorId: alice, moderation: "auto", body: "Hi" }),
      ).toEqual({ ok: false, error: "postNotOpen" });
    }
  });

  it("attaches a reply to a reply to the top-level comment", async () => {
    const top = await comment({ body: "Top" });
    const reply = await comment({ body: "Reply", parentId: top, authorId: bob });
    const nested = await comment({ body: "Reply to the reply", parentId: reply });
    const rows = await database.db
      .selectFrom("comments")
      .select(["id", "parentId"])
      .where("id", "in", [reply, nested])
      .execute();
    expect(rows.map((r) => r.parentId)).toEqual([top, top]);
  });

  it("refuses a parent on another post, or one the replier cannot see", async () => {
    const otherPost = await newPost();
    const elsewhere = await comment({ body: "Elsewhere", postId: otherPost });
    expect(
      await submitComment(database.db, { postId, authorId: bob, moderation: "auto", body: "Hi", parentId: elsewhere }),
    ).toEqual({ ok: false, error: "parentNotFound" });
    const held = await comment({ body: "Held", moderation: "hold" });
    expect(
      await submitComment(database.db, { postId, authorId: bob, moderation: "auto", body: "Hi", parentId: held }),
    ).toEqual({ ok: false, error: "parentNotFound" });
    // Its author may reply to their own pending comment.
    await comment({ body: "Me again", parentId: held });
  });
});

describe("moderation and listing", () => {
  it("holds comments in hold mode (not an admin's) and shows pending ones to their author only", async () => {
    const post = await newPost();
    const approved = await comment({ postId: post, body: "First" });
    const held = await comment({ postId: post, body: "Second", authorId: bob, moderation: "hold" });
    const byAdmin = await comment({ postId: post, body: "Third", moderation: "hold", trusted: true });
    const heldReply = await comment({
      postId: post,
      body: "Reply",
      authorId: bob,
      moderation: "hold",
      parentId: approved,
    });

    const anonymous = await listComments(database.db, post, null);
    expect(anonymous.map((c) => c.id)).toEqual([approved, byAdmin]);
    expect(anonymous[0]?.replies).toEqual([]);
    const asAlice = await listComments(database.db, post, alice);
    expect(asAlice.map((c) => c.id)).toEqual([approved, byAdmin]);

    const asBob = await listComments(database.db, post, bob);
    expect(asBob.map((c) => [c.id, c.status])).toEqual([
      [approved, "approved"],
      [held, "pending"],
      [byAdmin, "approved"],
    ]);
    expect(asBob[0]?.replies.map((r) => [r.id, r.status])).toEqual([[heldReply, "pending"]]);
    expect(asBob[0]?.authorName).toBe("Alice");
    // No name chosen: none shown, and nothing of the address.
    expect(asBob[1]?.authorName).toBeNull();
  });

  it("leaves hidden and spam comments out, with their replies", async () => {
    const post = await newPost();
    const hidden = await comment({ postId: post, body: "Hidden later" });
    await comment({ postId: post, body: "Reply", parentId: hidden, authorId: bob });
    await database.db.updateTable("comments").set({ status: "spam" }).where("id", "=", hidden).execute();
    expect(await listComments(database.db, post, alice)).toEqual([]);
    expect(await listComments(database.db, post, bob)).toEqual([]);
  });
});

describe("deleteComment", () => {
  it("deletes only the reader's own comment: ownership is in the WHERE clause", async () => {
    const mine = await comment({ body: "Alice's" });
    expect(await deleteComment(database.db, { postId, commentId: mine, userId: bob, isAdmin: false })).toBe(false);
    expect(await count(mine)).toBe(1);
    expect(await deleteComment(database.db, { postId: "other", commentId: mine, userId: alice, isAdmin: false })).toBe(
      false,
    );
    expect(await count(mine)).toBe(1);
    expect(await deleteComment(database.db, { postId, commentId: mine, userId: alice, isAdmin: false })).toBe(true);
    expect(await count(mine)).toBe(0);
    expect(await deleteComment(database.db, { postId, commentId: mine, userId: alice, isAdmin: false })).toBe(false);
  });

  it("lets an admin delete anyone's comment, and a comment's replies go with it", async () => {
    const top = await comment({ body: "Top" });
    const reply = await comment({ body: "Reply", parentId: top, authorId: bob });
    expect(await deleteComment(database.db, { postId, commentId: top, userId: "admin", isAdmin: true })).toBe(true);
    expect(await count(top)).toBe(0);
    expect(await count(reply)).toBe(0);
  });
});

describe("commentLimitChecks", () => {
  it("limits per account per minute and per hour, scaled for tests", () => {
    const checks = commentLimitChecks("u1", 2);
    expect(checks.map((c) => [c.key, c.limit.max])).toEqual([
      ["comment:min:u1", 10],
      ["comment:hour:u1", 60],
    ]);
  });
});
