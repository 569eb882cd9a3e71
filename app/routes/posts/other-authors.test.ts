import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { type FakeUser, fakeSessionRequests } from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { newId } from "../../server/platform/ids.server.ts";
import { createEditorPost } from "../../server/posts/post-editor.server.ts";
import { listRevisions, pendingRevision } from "../../server/posts/revisions.server.ts";
import { action as blogAction, loader as blogLoader } from "../admin/blog.tsx";
import { action as editorAction, loader as editorLoader } from "./editor.tsx";
import { loader as historyLoader } from "./history.tsx";
import { action as previewsAction, loader as previewsLoader } from "./previews.tsx";
import { action as diffAction, loader as diffLoader } from "./revision-diff.tsx";

// Posts written by someone else (the demo author, an imported author without a login, another
// admin): an admin edits, publishes, unpublishes, trashes and restores them like their own,
// through the same checks, under the author's byline and in the audit log; an account that is
// not an admin reaches none of it (docs/decisions/028-admins-edit-every-post.md).

let database: TestDatabase;
const { get, post } = fakeSessionRequests(() => database);

const OWNER: FakeUser = { id: "", email: "owner@example.test", emailVerified: true };
const READER: FakeUser = { id: "", email: "reader@example.test", emailVerified: true };
/** The demo or imported author: an account nobody signs in to. */
let authorId = "";

const translation = (title: string, body: string) => ({
  locale: "en" as const,
  title,
  summary: "",
  bodyMarkdown: body,
  seoTitle: null,
  seoDescription: null,
});

async function authorsPost(status: "draft" | "published", title: string): Promise<string> {
  const result = await createEditorPost(database.db, authorId, {
    key: newId(),
    slug: `theirs-${newId().slice(0, 8)}`,
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status,
    publishAt: null,
    translations: [translation(title, "Their words.")],
  });
  if (!result.ok) throw new Error("setup failed");
  return result.id;
}

async function stored(postId: string) {
  const row = await database.db
    .selectFrom("posts as p")
    .innerJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", "en"))
    .select(["p.authorId", "p.status", "p.version", "p.deletedAt", "t.title", "t.bodyMarkdown"])
    .where("p.id", "=", postId)
    .executeTakeFirstOrThrow();
  return { ...row, version: Number(row.version) };
}

/** The post's audit entries, by action (entries of one millisecond have no order between them). */
async function auditOf(postId: string) {
  return database.db
    .selectFrom("auditLog")
    .select(["actorId", "actorEmail", "action", "entityId"])
    .where("entityType", "=", "post")
    .where("entityId", "=", postId)
    .orderBy("action")
    .execute();
}

const fields = (version: number, title: string, extra: Record<string, string> = {}) => ({
  enTitle: title,
  enBody: "Corrected words.",
  status: "draft",
  version: String(version),
  ...extra,
});

beforeAll(async () => {
  database = await createTestDatabase();
  OWNER.id = await insertUser(database.db, { email: OWNER.email, name: "The Owner" });
  READER.id = await insertUser(database.db, { email: READER.email, name: "A Reader" });
  authorId = await insertUser(database.db, { email: "demo-author@example.test", name: "Demo Author" });
  await addAdmins(database.db, [OWNER.email], "cli");
});

afterAll(async () => {
  await database.cleanup();
});

describe(`an admin on another author's post (${testDialect()})`, () => {
  it("opens it in the editor", async () => {
    const postId = await authorsPost("draft", "Their draft");
    const reply = await callRoute(editorLoader, get(`/posts/edit/${postId}`, OWNER, { postId }));
    expect(reply.status).toBe(200);
    expect((reply.body as { values: { enTitle: string } }).values.enTitle).toBe("Their draft");
    // The editor says whose byline the post keeps.
    expect((reply.body as { post: { byline: unknown } }).post.byline).toEqual({ name: "Demo Author" });
    const own = await createEditorPost(database.db, OWNER.id, {
      key: newId(),
      slug: `mine-${newId().slice(0, 8)}`,
      categoryId: null,
      tags: [],
      coverImageUrl: null,
      coverAlt: "",
      status: "draft",
      publishAt: null,
      translations: [translation("Mine", "")],
    });
    if (!own.ok) throw new Error("setup failed");
    const mine = await callRoute(editorLoader, get(`/posts/edit/${own.id}`, OWNER, { postId: own.id }));
    expect((mine.body as { post: { byline: unknown } }).post.byline).toBeNull();
  });

  it("saves it under the author's byline, with a revision by the admin and an audit entry", async () => {
    const postId = await authorsPost("draft", "Typo in teh title");
    const path = `/posts/edit/${postId}`;
    const reply = await callRoute(editorAction, post(path, OWNER, fields(1, "Typo in the title"), { postId }));
    expect(reply).toMatchObject({ status: 302, location: path });
    expect(await stored(postId)).toMatchObject({ authorId, title: "Typo in the title", version: 2 });
    const revisions = await database.db
      .selectFrom("postRevisions")
      .select(["authorId", "translations"])
      .where("postId", "=", postId)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute();
    // The author's first revision stays; the admin's save is a revision of its own.
    expect(revisions.map((r) => r.authorId)).toEqual([OWNER.id, authorId]);
    expect(revisions[0]?.translations).toContain("Typo in the title");
    expect(await auditOf(postId)).toContainEqual({
      actorId: OWNER.id,
      actorEmail: OWNER.email,
      action: "post.update",
      entityId: postId,
    });
  });

  it("keeps a live post's edit pending until Update, then publishes it, byline unchanged", async () => {
    const postId = await authorsPost("published", "Their live post");
    const path = `/posts/edit/${postId}`;
    const live = { status: "published" };
    const saved = await callRoute(
      editorAction,
      post(path, OWNER, fields(1, "Their live post, corrected", { ...live, intent: "save" }), { postId }),
    );
    expect(saved).toMatchObject({ status: 302, location: path });
    expect(await stored(postId)).toMatchObject({ title: "Their live post", version: 2 });
    expect((await pendingRevision(database.db, postId))?.content.translations.en?.title).toBe(
      "Their live post, corrected",
    );
    const updated = await callRoute(
      editorAction,
      post(path, OWNER, fields(2, "Their live post, corrected", { ...live, intent: "update" }), { postId }),
    );
    expect(updated).toMatchObject({ status: 302, location: path });
    expect(await stored(postId)).toMatchObject({
      authorId,
      status: "published",
      title: "Their live post, corrected",
      bodyMarkdown: "Corrected words.",
    });
    const actions = (await auditOf(postId)).filter((a) => a.actorId === OWNER.id).map((a) => a.action);
    expect(actions).toEqual(["post.savePending", "post.update"]);
  });

  it("goes through the conflict check: a stale version saves nothing", async () => {
    const postId = await authorsPost("draft", "Contested");
    const path = `/posts/edit/${postId}`;
    expect((await callRoute(editorAction, post(path, OWNER, fields(1, "First"), { postId }))).status).toBe(302);
    const stale = await callRoute(editorAction, post(path, OWNER, fields(1, "Second"), { postId }));
    expect(stale.status).toBe(409);
    expect((stale.body as { conflict: { version: number } }).conflict.version).toBe(2);
    expect(await stored(postId)).toMatchObject({ authorId, title: "First", version: 2 });
  });

  it("publishes, unpublishes, trashes and restores it from the list, each in the audit log", async () => {
    const postId = await authorsPost("draft", "From the list");
    const list = (intent: string) =>
      callRoute(blogAction, post("/admin/blog", OWNER, { intent, id: postId, back: "/admin/blog" }));
    expect((await list("publish")).status).toBe(302);
    expect(await stored(postId)).toMatchObject({ authorId, status: "published" });
    expect((await list("unpublish")).status).toBe(302);
    expect(await stored(postId)).toMatchObject({ authorId, status: "draft" });
    expect((await list("trash")).status).toBe(302);
    expect((await stored(postId)).deletedAt).not.toBeNull();
    expect((await list("restore")).status).toBe(302);
    expect(await stored(postId)).toMatchObject({ authorId, status: "draft", deletedAt: null });
    const actions = (await auditOf(postId)).filter((a) => a.actorId === OWNER.id).map((a) => a.action);
    expect(actions).toEqual(["post.publish", "post.restore", "post.trash", "post.unpublish"]);
  });

  it("lists every author's posts, each title a link to the editor, with the author's name and not their address", async () => {
    const postId = await authorsPost("draft", "Listed for the owner");
    const reply = await callRoute(blogLoader, get("/admin/blog", OWNER));
    expect(reply.status).toBe(200);
    const body = reply.body as {
      list: { items: Array<Record<string, unknown>> };
      authors: Array<Record<string, unknown>>;
    };
    const row = body.list.items.find((item) => item.id === postId);
    expect(row).toMatchObject({ authorName: "Demo Author", editHref: `/posts/edit/${postId}` });
    expect(JSON.stringify(body)).not.toContain("demo-author@example.test");
    expect(body.authors).toContainEqual({ id: authorId, name: "Demo Author" });
  });

  it("opens its history, compares and restores a revision, and makes preview links", async () => {
    const postId = await authorsPost("draft", "Old title");
    const path = `/posts/edit/${postId}`;
    await callRoute(editorAction, post(path, OWNER, fields(1, "New title"), { postId }));
    expect((await callRoute(historyLoader, get(`${path}/history`, OWNER, { postId }))).status).toBe(200);
    const [newest, oldest] = await listRevisions(database.db, postId);
    if (!newest || !oldest) throw new Error("expected two revisions");
    const range = `${oldest.id}...${newest.id}`;
    const diffPath = `${path}/history/${range}`;
    expect((await callRoute(diffLoader, get(diffPath, OWNER, { postId, range }))).status).toBe(200);
    const restored = await callRoute(
      diffAction,
      post(diffPath, OWNER, { intent: "restore", revisionId: oldest.id }, { postId, range }),
    );
    expect(restored).toMatchObject({ status: 302, location: path });
    expect(await stored(postId)).toMatchObject({ authorId, title: "Old title" });
    expect((await auditOf(postId)).map((a) => a.action)).toContain("post.restoreRevision");

    expect((await callRoute(previewsLoader, get(`${path}/previews`, OWNER, { postId }))).status).toBe(200);
    const created = await callRoute(
      previewsAction,
      post(`${path}/previews`, OWNER, { intent: "create", hours: "1" }, { postId }),
    );
    expect(created.status).toBe(200);
    expect((await auditOf(postId)).map((a) => a.action)).toContain("post.previewLink");
  });
});

describe(`an account that is not an admin, on someone else's post (${testDialect()})`, () => {
  it("is refused by every loader and action, as a direct request would try, and nothing changes", async () => {
    const postId = await authorsPost("published", "Not yours");
    const before = await stored(postId);
    const path = `/posts/edit/${postId}`;
    const range = `${newId()}...${newId()}`;
    const attempts = [
      ["editor loader", editorLoader, get(path, READER, { postId })],
      ["editor save", editorAction, post(path, READER, fields(1, "Hijacked", { intent: "update" }), { postId })],
      ["editor discard", editorAction, post(path, READER, { intent: "discard", version: "1" }, { postId })],
      [
        "editor schedule",
        editorAction,
        post(path, READER, { intent: "schedule", version: "1", updateAtLocal: "2099-01-01T10:00" }, { postId }),
      ],
      ["history", historyLoader, get(`${path}/history`, READER, { postId })],
      ["compare", diffLoader, get(`${path}/history/${range}`, READER, { postId, range })],
      [
        "restore",
        diffAction,
        post(
          `${path}/history/${range}`,
          READER,
          { intent: "restore", revisionId: range.slice(0, 20) },
          { postId, range },
        ),
      ],
      ["previews", previewsLoader, get(`${path}/previews`, READER, { postId })],
      ["preview link", previewsAction, post(`${path}/previews`, READER, { intent: "create", hours: "1" }, { postId })],
      ["list trash", blogAction, post("/admin/blog", READER, { intent: "trash", id: postId })],
    ] as const;
    for (const [name, handler, args] of attempts) {
      // Writing is an admin's: the guard answers before the post is looked at, so the answer
      // says nothing about whether the post exists.
      expect((await callRoute(handler, args)).status, name).toBe(403);
    }
    expect(await stored(postId)).toEqual(before);
    expect(await pendingRevision(database.db, postId)).toBeNull();
    expect(await database.db.selectFrom("previewLinks").select("id").where("postId", "=", postId).execute()).toEqual(
      [],
    );
  });
});
