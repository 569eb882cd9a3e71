import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAdmin } from "../../../tests/setup/editing-user.ts";
import { type FakeUser, fakeSessionRequests } from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { EditorTranslation } from "../../lib/schemas/post.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { newId } from "../../server/platform/ids.server.ts";
import { createEditorPost, updateEditorPost } from "../../server/posts/post-editor.server.ts";
import { action as editorAction, loader as editorLoader } from "./editor.tsx";

// "Mark as up to date" and the editor's out-of-date box (issue 47, decision 034), called as
// React Router calls them: the permission is checked by the action itself.

const ADMIN: FakeUser = { id: "user-admin", email: "admin@example.test", emailVerified: true };
const READER: FakeUser = { id: "user-reader", email: "reader@example.test", emailVerified: true };

let database: TestDatabase;
const { get, post } = fakeSessionRequests(() => database);

beforeAll(async () => {
  database = await createTestDatabase();
  await addAdmins(database.db, [ADMIN.email], "cli");
});

afterAll(async () => {
  await database.cleanup();
});

const version = (locale: "en" | "zh", title: string, body: string): EditorTranslation => ({
  locale,
  title,
  summary: "",
  bodyMarkdown: body,
  seoTitle: null,
  seoDescription: null,
});

/** A post whose Chinese version is out of date: its English body changed after both were written. */
async function outdatedPost(): Promise<string> {
  const base = {
    slug: `tea-${newId().slice(0, 8).toLowerCase()}`,
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "draft" as const,
    publishAt: null,
  };
  const created = await createEditorPost(database.db, ADMIN.id, {
    ...base,
    key: newId(),
    translations: [version("en", "Tea", "Mild."), version("zh", "茶", "温和。")],
  });
  if (!created.ok) throw new Error("setup failed");
  const saved = await updateEditorPost(database.db, asAdmin(ADMIN.id), created.id, {
    ...base,
    version: created.version,
    translations: [version("en", "Tea", "Mild and sweet."), version("zh", "茶", "温和。")],
  });
  if (!saved.ok) throw new Error("setup failed");
  return created.id;
}

const zhMark = async (postId: string) =>
  (
    await database.db
      .selectFrom("postTranslations")
      .select("outdatedSince")
      .where("postId", "=", postId)
      .where("locale", "=", "zh")
      .executeTakeFirstOrThrow()
  ).outdatedSince;

describe(`Mark as up to date (${testDialect()})`, () => {
  it("gives the editor the version out of date and what changed in the other one", async () => {
    const postId = await outdatedPost();
    const reply = await callRoute(editorLoader, get(`/posts/edit/${postId}`, ADMIN, { postId }));
    const outdated = (reply.body as { outdated: Array<{ locale: string; source: string; body: { changed: boolean } }> })
      .outdated;
    expect(outdated.map((o) => [o.locale, o.source, o.body.changed])).toEqual([["zh", "en", true]]);
  });

  it("refuses anyone but an admin, bad input and unknown posts, changing nothing", async () => {
    const postId = await outdatedPost();
    const mark = (user: FakeUser | null, fields: Record<string, string>, id = postId) =>
      callRoute(editorAction, post(`/posts/edit/${id}`, user, fields, { postId: id }));
    expect((await mark(null, { intent: "markInLine", locale: "zh" })).status).toBe(302);
    expect((await mark(READER, { intent: "markInLine", locale: "zh" })).status).toBe(403);
    expect((await mark(ADMIN, { intent: "markInLine", locale: "fr" })).status).toBe(400);
    expect((await mark(ADMIN, { intent: "markInLine", locale: "zh" }, newId())).status).toBe(404);
    expect(await zhMark(postId)).not.toBeNull();
  });

  it("clears the mark for an admin and goes back to the editor with a flash", async () => {
    const postId = await outdatedPost();
    const reply = await callRoute(
      editorAction,
      post(`/zh/posts/edit/${postId}`, ADMIN, { intent: "markInLine", locale: "zh" }, { postId }),
    );
    expect(reply).toMatchObject({ status: 302, location: `/zh/posts/edit/${postId}` });
    expect(await zhMark(postId)).toBeNull();
    const after = await callRoute(editorLoader, get(`/posts/edit/${postId}`, ADMIN, { postId }));
    expect((after.body as { outdated: unknown[] }).outdated).toEqual([]);
  });
});
