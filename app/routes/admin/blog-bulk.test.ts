import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import {
  type FakeUser,
  fakeSessionRequests,
  type RouteArgs,
  TEST_URL_BASE,
} from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { createPost } from "../../server/posts/posts.server.ts";
import { createCategory } from "../../server/taxonomy/taxonomy.server.ts";
import { action as blogAction } from "./blog.tsx";

// The posts list's bulk actions: publish, unpublish, move to a category and trash many posts at
// once, through the post lifecycle (status, audit entry, newsletter), all or nothing, by admins.

let database: TestDatabase;
const { contextFor, cookieOf } = fakeSessionRequests(() => database);

const OWNER: FakeUser = { id: "", email: "bulk-owner@example.test", emailVerified: true };
const READER: FakeUser = { id: "", email: "bulk-reader@example.test", emailVerified: true };
let authorId = "";
let categoryId = "";
let counter = 0;

/** A POST with repeated fields (`ids` once per checked row). */
function bulk(user: FakeUser | null, fields: Array<[string, string]>): RouteArgs {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  return {
    request: new Request(`${TEST_URL_BASE}/admin/blog`, { method: "POST", body, headers: cookieOf(user) }),
    context: contextFor(user, "/admin/blog"),
    params: {},
  };
}

const bulkOf = (action: string, ids: readonly string[], extra: Array<[string, string]> = []) => [
  ["intent", "bulk"] as [string, string],
  ["bulk", action] as [string, string],
  ["back", "/admin/blog"] as [string, string],
  ...ids.map((id): [string, string] => ["ids", id]),
  ...extra,
];

async function somePost(status: "draft" | "published"): Promise<string> {
  counter += 1;
  return createPost(database.db, {
    slug: `bulk-${counter}`,
    authorId,
    status,
    publishedAt: status === "published" ? "2026-11-01T00:00:00.000Z" : null,
    newsletter: status === "draft",
    translations: [{ locale: "en", title: `Bulk ${counter}` }],
  });
}

async function rows(ids: readonly string[]) {
  const found = await database.db
    .selectFrom("posts")
    .select(["id", "status", "authorId", "categoryId", "deletedAt", "version"])
    .where("id", "in", ids)
    .orderBy("slug")
    .execute();
  return found.map((r) => ({ ...r, version: Number(r.version) }));
}

async function auditActions(ids: readonly string[]) {
  const entries = await database.db
    .selectFrom("auditLog")
    .select(["action", "actorId"])
    .where("entityType", "=", "post")
    .where("entityId", "in", ids)
    .execute();
  return entries.map((e) => `${e.action}:${e.actorId === OWNER.id ? "owner" : e.actorId}`).sort();
}

beforeAll(async () => {
  database = await createTestDatabase();
  OWNER.id = await insertUser(database.db, { email: OWNER.email, name: "The Owner" });
  READER.id = await insertUser(database.db, { email: READER.email, name: "A Reader" });
  authorId = await insertUser(database.db, { email: "bulk-author@example.test", name: "Demo Author" });
  await addAdmins(database.db, [OWNER.email], "cli");
  categoryId = await createCategory(database.db, { slug: "bulk-moved", nameEn: "Moved", nameZh: "移动" });
});

afterAll(async () => {
  await database.cleanup();
});

describe(`the posts list's bulk actions (${testDialect()})`, () => {
  it("publishes and unpublishes every checked post of any author, each in the audit log", async () => {
    const ids = [await somePost("draft"), await somePost("draft"), await somePost("published")];
    const published = await callRoute(blogAction, bulk(OWNER, bulkOf("publish", ids)));
    expect(published.status).toBe(302);
    expect((await rows(ids)).map((r) => r.status)).toEqual(["published", "published", "published"]);
    // The byline stays the author's; the post already live is left alone.
    expect((await rows(ids)).map((r) => r.authorId)).toEqual([authorId, authorId, authorId]);
    expect(await auditActions(ids)).toEqual(["post.publish:owner", "post.publish:owner"]);
    // Going live through the lifecycle starts each post's newsletter.
    const sends = await database.db.selectFrom("newsletterSends").select("postId").where("postId", "in", ids).execute();
    expect(sends.map((s) => s.postId).sort()).toEqual([ids[0], ids[1]].sort());

    expect((await callRoute(blogAction, bulk(OWNER, bulkOf("unpublish", ids)))).status).toBe(302);
    expect((await rows(ids)).map((r) => r.status)).toEqual(["draft", "draft", "draft"]);
    expect((await auditActions(ids)).filter((a) => a.startsWith("post.unpublish"))).toHaveLength(3);
  });

  it("moves checked posts to a category and trashes them", async () => {
    const ids = [await somePost("draft"), await somePost("published")];
    const moved = await callRoute(blogAction, bulk(OWNER, bulkOf("category", ids, [["categoryId", categoryId]])));
    expect(moved.status).toBe(302);
    expect((await rows(ids)).map((r) => [r.categoryId, r.version])).toEqual([
      [categoryId, 2],
      [categoryId, 2],
    ]);
    expect((await callRoute(blogAction, bulk(OWNER, bulkOf("trash", ids)))).status).toBe(302);
    expect((await rows(ids)).every((r) => r.deletedAt !== null)).toBe(true);
    expect(await auditActions(ids)).toEqual([
      "post.trash:owner",
      "post.trash:owner",
      "post.update:owner",
      "post.update:owner",
    ]);
  });

  it("refuses bad input with a 4xx and a message, and writes nothing", async () => {
    const live = await somePost("draft");
    const trashed = await somePost("draft");
    await callRoute(blogAction, bulk(OWNER, bulkOf("trash", [trashed])));
    const before = await rows([live, trashed]);
    const cases: Array<[string, Array<[string, string]>, number, string]> = [
      ["no posts", bulkOf("publish", []), 400, "adminContent:errors.choosePosts"],
      ["no action", bulkOf("", [live]), 400, "adminContent:errors.chooseAction"],
      ["unknown action", bulkOf("purge", [live]), 400, "adminContent:errors.chooseAction"],
      ["no category", bulkOf("category", [live]), 400, "adminContent:errors.chooseCategory"],
      [
        "unknown category",
        bulkOf("category", [live], [["categoryId", "nope"]]),
        400,
        "adminContent:errors.chooseCategory",
      ],
      // One post out of reach (unknown, or in the trash) refuses the lot: no partial writes.
      ["an unknown post", bulkOf("publish", [live, "missing"]), 404, "admin:errors.notFound"],
      ["a trashed post", bulkOf("publish", [live, trashed]), 404, "admin:errors.notFound"],
      [
        "too many",
        bulkOf(
          "publish",
          Array.from({ length: 101 }, (_, i) => `id-${i}`),
        ),
        400,
        "adminContent:errors.tooManyPosts",
      ],
    ];
    for (const [name, fields, status, error] of cases) {
      const reply = await callRoute(blogAction, bulk(OWNER, fields));
      expect(reply.status, name).toBe(status);
      expect((reply.body as { error: string }).error, name).toBe(error);
    }
    expect(await rows([live, trashed])).toEqual(before);
  });

  it("is an admin's: anyone else gets 403 and nothing changes", async () => {
    const ids = [await somePost("draft")];
    const before = await rows(ids);
    expect((await callRoute(blogAction, bulk(READER, bulkOf("publish", ids)))).status).toBe(403);
    // Signed out: sent to sign in, nothing written.
    await callRoute(blogAction, bulk(null, bulkOf("trash", ids)));
    expect(await rows(ids)).toEqual(before);
  });
});
