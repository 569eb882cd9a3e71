import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUser, fakeSessionRequests } from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { newId } from "../../server/platform/ids.server.ts";
import { createEditorPost } from "../../server/posts/post-editor.server.ts";
import { listRevisions, pendingRevision } from "../../server/posts/revisions.server.ts";
import { action as editorAction } from "./editor.tsx";
import { loader as historyLoader } from "./history.tsx";
import { action as previewsAction, loader as previewsLoader } from "./previews.tsx";
import { action as diffAction, loader as diffLoader, parseRange } from "./revision-diff.tsx";

// The history pages and the live post's Save/Update, called as React Router calls them,
// with a session faked at the auth layer: who may do what is decided on the server.

const ADMIN: FakeUser = { id: "hist-admin", email: "hist-admin@example.test", emailVerified: true };
const OTHER_ADMIN: FakeUser = { id: "hist-admin-2", email: "hist-second@example.test", emailVerified: true };
const READER: FakeUser = { id: "hist-reader", email: "hist-reader@example.test", emailVerified: true };

let database: TestDatabase;
let postId: string;
const { get, post } = fakeSessionRequests(() => database);

async function publicBody(): Promise<string> {
  const row = await database.db
    .selectFrom("postTranslations")
    .select("bodyMarkdown")
    .where("postId", "=", postId)
    .where("locale", "=", "en")
    .executeTakeFirstOrThrow();
  return row.bodyMarkdown;
}

async function version(): Promise<string> {
  const row = await database.db
    .selectFrom("posts")
    .select("version")
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
  return String(row.version);
}

beforeAll(async () => {
  database = await createTestDatabase();
  await addAdmins(database.db, [ADMIN.email, OTHER_ADMIN.email], "cli");
  const result = await createEditorPost(database.db, ADMIN.id, {
    key: newId(),
    slug: "history-live",
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "published",
    publishAt: null,
    translations: [
      { locale: "en", title: "Live", summary: "", bodyMarkdown: "Old text.", seoTitle: null, seoDescription: null },
    ],
  });
  if (!result.ok) throw new Error("setup failed");
  postId = result.id;
});

afterAll(async () => {
  await database.cleanup();
});

describe(`history pages and live edits (${testDialect()})`, () => {
  it("reads a range of two different record ids only", () => {
    const a = newId();
    const b = newId();
    expect(parseRange(`${a}...${b}`)).toEqual([a, b]);
    expect(parseRange(`${a}...${a}`)).toBeNull();
    expect(parseRange(`${a}..${b}`)).toBeNull();
    expect(parseRange(`${a}...${b}...${a}`)).toBeNull();
  });

  it("keeps Save of a live post pending and publishes it on Update", async () => {
    const fields = { enTitle: "Live", enBody: "New text.", status: "published", slug: "history-live" };
    const saved = await callRoute(
      editorAction,
      post(`/posts/edit/${postId}`, ADMIN, { ...fields, version: await version(), intent: "save" }, { postId }),
    );
    expect(saved).toMatchObject({ status: 302, location: `/posts/edit/${postId}` });
    expect(await publicBody()).toBe("Old text.");
    expect((await pendingRevision(database.db, postId))?.content.translations.en?.bodyMarkdown).toBe("New text.");

    const updated = await callRoute(
      editorAction,
      post(`/posts/edit/${postId}`, ADMIN, { ...fields, version: await version(), intent: "update" }, { postId }),
    );
    expect(updated.status).toBe(302);
    expect(await publicBody()).toBe("New text.");
    expect(await pendingRevision(database.db, postId)).toBeNull();
  });

  it("discards a live post's pending changes from the editor", async () => {
    const fields = { enTitle: "Live", enBody: "To be dropped.", status: "published", slug: "history-live" };
    const path = `/posts/edit/${postId}`;
    await callRoute(
      editorAction,
      post(path, ADMIN, { ...fields, version: await version(), intent: "save" }, { postId }),
    );
    expect(await pendingRevision(database.db, postId)).not.toBeNull();
    expect(
      (await callRoute(editorAction, post(path, ADMIN, { intent: "discard", version: "x" }, { postId }))).status,
    ).toBe(400);
    // A stale version from another admin (who may edit every post) is a conflict, not a discard.
    const other = await callRoute(
      editorAction,
      post(path, OTHER_ADMIN, { intent: "discard", version: "1" }, { postId }),
    );
    expect(other).toMatchObject({ status: 302, location: path });
    expect(await pendingRevision(database.db, postId)).not.toBeNull();
    const reply = await callRoute(
      editorAction,
      post(path, ADMIN, { intent: "discard", version: await version() }, { postId }),
    );
    expect(reply).toMatchObject({ status: 302, location: path });
    expect(await pendingRevision(database.db, postId)).toBeNull();
    expect(await publicBody()).toBe("New text.");
  });

  it("schedules a live post's pending changes, refusing a time in the past with 400", async () => {
    const fields = { enTitle: "Live", enBody: "Scheduled text.", status: "published", slug: "history-live" };
    const path = `/posts/edit/${postId}`;
    await callRoute(
      editorAction,
      post(path, ADMIN, { ...fields, version: await version(), intent: "save" }, { postId }),
    );
    const schedule = async (updateAtLocal: string) =>
      callRoute(
        editorAction,
        post(path, ADMIN, { intent: "schedule", version: await version(), updateAtLocal, updateAtTz: "0" }, { postId }),
      );
    const past = await schedule("2020-01-01T10:00");
    expect(past.status).toBe(400);
    expect((past.body as { fieldErrors: unknown }).fieldErrors).toEqual({ form: "editor:errors.updateAtInvalid" });
    expect((await schedule("not a time")).status).toBe(400);
    expect(await schedule("2099-01-01T10:00")).toMatchObject({ status: 302, location: path });
    expect((await pendingRevision(database.db, postId))?.scheduledFor).toBe("2099-01-01T10:00:00.000Z");
    // Back to what readers see, for the tests below.
    await callRoute(editorAction, post(path, ADMIN, { intent: "discard", version: await version() }, { postId }));
  });

  it("guards the history, the compare page and restore on the server", async () => {
    const range = `${newId()}...${newId()}`;
    const historyPath = `/posts/edit/${postId}/history`;
    const diffPath = `${historyPath}/${range}`;
    for (const [user, status] of [
      [null, 302],
      [READER, 403],
    ] as const) {
      expect((await callRoute(historyLoader, get(historyPath, user, { postId }))).status).toBe(status);
      expect((await callRoute(diffLoader, get(diffPath, user, { postId, range }))).status).toBe(status);
      const restore = post(diffPath, user, { intent: "restore", revisionId: range.slice(0, 20) }, { postId, range });
      expect((await callRoute(diffAction, restore)).status).toBe(status);
    }
    // The author: unknown revisions are 404, a revision outside the range is 400.
    expect((await callRoute(diffLoader, get(diffPath, ADMIN, { postId, range }))).status).toBe(404);
    const outside = post(diffPath, ADMIN, { intent: "restore", revisionId: newId() }, { postId, range });
    expect((await callRoute(diffAction, outside)).status).toBe(400);
    expect((await callRoute(historyLoader, get(`${historyPath}?a=x&b=y`, ADMIN, { postId }))).status).toBe(400);
  });

  it("restores an older revision of a live post as pending changes", async () => {
    const before = await listRevisions(database.db, postId);
    const oldest = before.at(-1);
    const newest = before[0];
    if (!oldest || !newest || oldest.id === newest.id) throw new Error("expected two revisions");
    const range = `${oldest.id}...${newest.id}`;
    const path = `/zh/posts/edit/${postId}/history/${range}`;
    const page = await callRoute(diffLoader, get(path, ADMIN, { postId, range }));
    expect(page.status).toBe(200);
    const reply = await callRoute(
      diffAction,
      post(path, ADMIN, { intent: "restore", revisionId: oldest.id }, { postId, range }),
    );
    expect(reply).toMatchObject({ status: 302, location: `/zh/posts/edit/${postId}` });
    // Readers keep the published text; the restored one waits for Update.
    expect(await publicBody()).toBe("New text.");
    expect((await pendingRevision(database.db, postId))?.content.translations.en?.bodyMarkdown).toBe("Old text.");
    expect(await listRevisions(database.db, postId)).toHaveLength(before.length + 1);
  });

  it("guards the preview links page on the server and checks the expiry", async () => {
    const path = `/posts/edit/${postId}/previews`;
    for (const [user, status] of [
      [null, 302],
      [READER, 403],
    ] as const) {
      expect((await callRoute(previewsLoader, get(path, user, { postId }))).status).toBe(status);
      const create = post(path, user, { intent: "create", hours: "48" }, { postId });
      expect((await callRoute(previewsAction, create)).status).toBe(status);
    }
    for (const hours of ["0", "721", "1.5", "abc"]) {
      const reply = await callRoute(previewsAction, post(path, ADMIN, { intent: "create", hours }, { postId }));
      expect(reply.status, hours).toBe(400);
    }
    expect(await database.db.selectFrom("previewLinks").select("id").execute()).toEqual([]);
    const created = await callRoute(previewsAction, post(path, ADMIN, { intent: "create", hours: "1" }, { postId }));
    expect(created.status).toBe(200);
    expect((created.body as { created: string }).created).toMatch(/^http:\/\/blog\.test\/preview\/[\w-]{43}$/);
  });
});
