import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAuthor } from "../../../tests/setup/editing-user.ts";
import { type FakeUser, fakeSessionRequests } from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { newId } from "../../server/platform/ids.server.ts";
import { createEditorPost, loadPostForEdit } from "../../server/posts/post-editor.server.ts";
import { action as editorAction, loader as editorLoader } from "./editor.tsx";
import { loader as myPostsLoader } from "./my-posts.tsx";

// The editor's loaders and actions, called as React Router calls them, with a
// session faked at the auth layer: who may do what is decided on the server.

const ADMIN: FakeUser = { id: "user-admin", email: "admin@example.test", emailVerified: true };
const OTHER_ADMIN: FakeUser = { id: "user-admin-2", email: "second@example.test", emailVerified: true };
const READER: FakeUser = { id: "user-reader", email: "reader@example.test", emailVerified: true };
// Listed as admin, but the e-mail is not verified: never an admin.
const UNVERIFIED: FakeUser = { id: "user-unverified", email: "unverified@example.test", emailVerified: false };

let database: TestDatabase;
const { get, post } = fakeSessionRequests(() => database);

beforeAll(async () => {
  database = await createTestDatabase();
  await addAdmins(database.db, [ADMIN.email, OTHER_ADMIN.email, UNVERIFIED.email], "cli");
});

afterAll(async () => {
  await database.cleanup();
});

const form = (overrides: Record<string, string> = {}) => ({
  key: newId(),
  enTitle: "From the form",
  enBody: "Some *body*.",
  status: "draft",
  ...overrides,
});

describe(`editor permissions (${testDialect()})`, () => {
  let postId: string;

  beforeAll(async () => {
    const result = await createEditorPost(database.db, ADMIN.id, {
      key: newId(),
      slug: "admins-own",
      categoryId: null,
      tags: [],
      coverImageUrl: null,
      coverAlt: "",
      status: "draft",
      publishAt: null,
      translations: [
        { locale: "en", title: "Mine", summary: "", bodyMarkdown: "", seoTitle: null, seoDescription: null },
      ],
    });
    if (!result.ok) throw new Error("setup failed");
    postId = result.id;
  });

  const cases = () =>
    [
      ["GET /posts/myPosts", myPostsLoader, (u: FakeUser | null) => get("/posts/myPosts", u)],
      ["GET /posts/createPost", editorLoader, (u: FakeUser | null) => get("/posts/createPost", u)],
      ["GET /posts/edit/{id}", editorLoader, (u: FakeUser | null) => get(`/posts/edit/${postId}`, u, { postId })],
      ["POST /posts/createPost", editorAction, (u: FakeUser | null) => post("/posts/createPost", u, form())],
      [
        "POST /posts/edit/{id}",
        editorAction,
        (u: FakeUser | null) => post(`/posts/edit/${postId}`, u, form({ version: "1" }), { postId }),
      ],
    ] as const;

  it("sends anonymous visitors to the login page, coming back afterwards", async () => {
    for (const [name, handler, args] of cases()) {
      const a = args(null);
      const reply = await callRoute(handler, a);
      expect(reply.status, name).toBe(302);
      const back = new URL(a.request.url).pathname;
      expect(reply.location, name).toBe(`/login?redirectTo=${encodeURIComponent(back)}`);
    }
  });

  it("answers 403 to signed-in users who are not admins (also an unverified listed e-mail)", async () => {
    for (const user of [READER, UNVERIFIED]) {
      for (const [name, handler, args] of cases()) {
        expect((await callRoute(handler, args(user))).status, `${name} as ${user.email}`).toBe(403);
      }
    }
    const before = await database.db.selectFrom("posts").select("id").execute();
    expect(before).toHaveLength(1);
    expect((await loadPostForEdit(database.db, postId, asAuthor(ADMIN.id)))?.version).toBe(1);
  });

  it("lets the author's admin account in", async () => {
    for (const [name, handler, args] of cases().slice(0, 3)) {
      expect((await callRoute(handler, args(ADMIN))).status, name).toBe(200);
    }
  });

  it("lets another admin open and save someone else's post, which keeps its author", async () => {
    // Admins edit every post (decision 028); other-authors.test.ts follows it through.
    expect((await callRoute(editorLoader, get(`/posts/edit/${postId}`, OTHER_ADMIN, { postId }))).status).toBe(200);
    const reply = await callRoute(
      editorAction,
      post(`/posts/edit/${postId}`, OTHER_ADMIN, form({ version: "1", enTitle: "Mine, corrected" }), { postId }),
    );
    expect(reply).toMatchObject({ status: 302, location: `/posts/edit/${postId}` });
    const stored = await database.db
      .selectFrom("posts")
      .select(["authorId", "version"])
      .where("id", "=", postId)
      .executeTakeFirst();
    expect(stored).toEqual({ authorId: ADMIN.id, version: 2 });
    // My blogs lists only one's own posts.
    const list = await callRoute(myPostsLoader, get("/posts/myPosts", OTHER_ADMIN));
    expect((list.body as { list: { total: number } }).list.total).toBe(0);
  });
});

describe(`editor actions (${testDialect()})`, () => {
  it("creates a post, redirects to its edit page (keeping /en) with a flash, and a resubmit finds it", async () => {
    const key = newId();
    const fields = form({ key, enTitle: "Created through the action", tags: "one, two" });
    const first = await callRoute(editorAction, post("/en/posts/createPost", ADMIN, fields));
    expect(first).toMatchObject({ status: 302, location: `/en/posts/edit/${key}` });
    const again = await callRoute(editorAction, post("/en/posts/createPost", ADMIN, fields));
    expect(again).toMatchObject({ status: 302, location: `/en/posts/edit/${key}` });
    const rows = await database.db.selectFrom("posts").select("slug").where("id", "=", key).execute();
    expect(rows).toEqual([{ slug: "created-through-the-action" }]);
  });

  it("answers bad input with 400 and field errors, echoing what was sent", async () => {
    const reply = await callRoute(
      editorAction,
      post("/posts/createPost", ADMIN, form({ enTitle: "", zhBody: "正文", coverImageUrl: "javascript:alert(1)" })),
    );
    expect(reply.status).toBe(400);
    const body = reply.body as { fieldErrors: Record<string, string>; values: Record<string, string> };
    expect(body.fieldErrors).toEqual({
      enTitle: "editor:errors.titleRequiredWithContent",
      zhTitle: "editor:errors.titleRequiredWithContent",
      coverImageUrl: "editor:errors.coverUrlInvalid",
    });
    expect(body.values.zhBody).toBe("正文");
  });

  it("answers a taken slug with 400 and the slug's field error", async () => {
    await callRoute(editorAction, post("/posts/createPost", ADMIN, form({ slug: "slug-once" })));
    const reply = await callRoute(editorAction, post("/posts/createPost", ADMIN, form({ slug: "slug-once" })));
    expect(reply.status).toBe(400);
    expect((reply.body as { fieldErrors: unknown }).fieldErrors).toEqual({ slug: "editor:errors.slugTaken" });
  });

  it("answers a stale version with 409 and the saved version, and saves nothing", async () => {
    const key = newId();
    await callRoute(editorAction, post("/posts/createPost", ADMIN, form({ key, enTitle: "Original" })));
    const params = { postId: key };
    const saved = await callRoute(
      editorAction,
      post(`/posts/edit/${key}`, ADMIN, form({ version: "1", enTitle: "Theirs" }), params),
    );
    expect(saved).toMatchObject({ status: 302, location: `/posts/edit/${key}` });
    const stale = await callRoute(
      editorAction,
      post(`/posts/edit/${key}`, ADMIN, form({ version: "1", enTitle: "Mine" }), params),
    );
    expect(stale.status).toBe(409);
    const body = stale.body as {
      conflict: { version: number; values: Record<string, string> };
      values: Record<string, string>;
    };
    expect(body.conflict.version).toBe(2);
    expect(body.conflict.values.enTitle).toBe("Theirs");
    expect(body.values.enTitle).toBe("Mine");
    expect((await loadPostForEdit(database.db, key, asAuthor(ADMIN.id)))?.translations.en?.title).toBe("Theirs");
    // "Overwrite with mine" sends the version it saw.
    const overwrite = await callRoute(
      editorAction,
      post(`/posts/edit/${key}`, ADMIN, form({ version: "1", overwriteVersion: "2", enTitle: "Mine" }), params),
    );
    expect(overwrite.status).toBe(302);
    expect((await loadPostForEdit(database.db, key, asAuthor(ADMIN.id)))?.translations.en?.title).toBe("Mine");
  });

  it("answers 404 for a malformed page number on My blogs", async () => {
    expect((await callRoute(myPostsLoader, get("/posts/myPosts?page=0", ADMIN))).status).toBe(404);
    expect((await callRoute(myPostsLoader, get("/posts/myPosts?page=99", ADMIN))).status).toBe(404);
    expect((await callRoute(myPostsLoader, get("/posts/myPosts?status=nonsense", ADMIN))).status).toBe(200);
  });
});
