import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAdmin, asAuthor, editorInput } from "../../../tests/setup/editing-user.ts";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { EditorInput } from "../../lib/schemas/post.ts";
import { newId } from "../platform/ids.server.ts";
import {
  discardPendingEdit,
  isLivePost,
  publishDueUpdates,
  restoreRevision,
  savePendingEdit,
  schedulePendingUpdate,
} from "./pending-edits.server.ts";
import { canEditPost, editableBy } from "./post-access.server.ts";
import { createEditorPost, loadPostForEdit, setPostFederate, updateEditorPost } from "./post-editor.server.ts";
import { createPreviewLink, revokePreviewLink } from "./preview-links.server.ts";
import { listRevisions } from "./revisions.server.ts";

// The one rule of who may change which post (decision 028), as a predicate and as the WHERE
// clause every editor repository function uses.

let database: TestDatabase;
let author = "";
let admin = "";
let other = "";

beforeAll(async () => {
  database = await createTestDatabase();
  author = await insertUser(database.db, { email: "author@example.test", name: "Author" });
  admin = await insertUser(database.db, { email: "admin@example.test", name: "Admin" });
  other = await insertUser(database.db, { email: "other@example.test", name: "Other" });
});

afterAll(async () => {
  await database.cleanup();
});

function input(overrides: Partial<EditorInput> = {}, body = "Their words."): EditorInput {
  return editorInput({ title: "Theirs", body }, overrides);
}

async function authorsPost(status: "draft" | "published"): Promise<{ id: string; version: number }> {
  const result = await createEditorPost(database.db, author, input({ status, slug: `p-${newId().slice(0, 8)}` }));
  if (!result.ok) throw new Error("setup failed");
  return { id: result.id, version: result.version };
}

describe("canEditPost", () => {
  it("lets an admin edit every post, anyone else their own only", () => {
    expect(canEditPost(asAdmin("a"), { authorId: "b" })).toBe(true);
    expect(canEditPost(asAdmin("a"), { authorId: null })).toBe(true);
    expect(canEditPost(asAuthor("a"), { authorId: "a" })).toBe(true);
    expect(canEditPost(asAuthor("a"), { authorId: "b" })).toBe(false);
    expect(canEditPost(asAuthor("a"), { authorId: null })).toBe(false);
  });
});

describe(`editableBy, in the editor's repositories (${testDialect()})`, () => {
  it("is the same rule as a WHERE clause", async () => {
    const post = await authorsPost("draft");
    const ids = async (user: ReturnType<typeof asAdmin>) =>
      (
        await database.db.selectFrom("posts").select("id").where("id", "=", post.id).where(editableBy(user)).execute()
      ).map((r) => r.id);
    expect(await ids(asAdmin(admin))).toEqual([post.id]);
    expect(await ids(asAuthor(author))).toEqual([post.id]);
    expect(await ids(asAuthor(other))).toEqual([]);
  });

  it("answers 'not found' to someone who is neither the author nor an admin, writing nothing", async () => {
    const post = await authorsPost("published");
    const stranger = asAuthor(other);
    expect(await loadPostForEdit(database.db, post.id, stranger)).toBeNull();
    expect(await isLivePost(database.db, post.id, stranger)).toBe(false);
    expect(
      await updateEditorPost(database.db, stranger, post.id, input({ version: post.version, status: "draft" })),
    ).toEqual({ ok: false, reason: "notFound" });
    expect(
      await savePendingEdit(database.db, stranger, post.id, input({ version: post.version, status: "published" })),
    ).toEqual({ ok: false, reason: "notFound" });
    expect(await discardPendingEdit(database.db, stranger, post.id, post.version)).toBe("notFound");
    expect(
      await schedulePendingUpdate(database.db, {
        user: stranger,
        postId: post.id,
        version: post.version,
        at: "2099-01-01T00:00:00.000Z",
      }),
    ).toBe("notFound");
    expect(await setPostFederate(database.db, post.id, stranger, false)).toBe(false);
    const [revision] = await listRevisions(database.db, post.id);
    expect(await restoreRevision(database.db, stranger, post.id, revision?.id ?? "")).toEqual({
      ok: false,
      reason: "notFound",
    });
    expect(await createPreviewLink(database.db, { postId: post.id, user: stranger, hours: 1 })).toBeNull();
    expect(await revokePreviewLink(database.db, { postId: post.id, user: stranger, id: newId() })).toBe(false);
    const row = await database.db
      .selectFrom("posts")
      .select(["version", "federate", "status"])
      .where("id", "=", post.id)
      .executeTakeFirstOrThrow();
    expect({ ...row, version: Number(row.version), federate: Number(row.federate) }).toEqual({
      version: post.version,
      federate: 1,
      status: "published",
    });
    expect(await database.db.selectFrom("auditLog").select("id").where("actorId", "=", other).execute()).toEqual([]);
  });

  it("publishes an admin's scheduled changes to another author's post in the admin's name, byline unchanged", async () => {
    const post = await authorsPost("published");
    const pending = await savePendingEdit(
      database.db,
      asAdmin(admin),
      post.id,
      input({ version: post.version, status: "published" }, "Corrected by the owner."),
    );
    if (!pending.ok) throw new Error(JSON.stringify(pending));
    const at = "2099-01-01T00:00:00.000Z";
    expect(
      await schedulePendingUpdate(database.db, { user: asAdmin(admin), postId: post.id, version: pending.version, at }),
    ).toBe("scheduled");
    expect(await publishDueUpdates(database.db, new Date(Date.parse(at) + 1000))).toEqual([post.id]);
    const stored = await database.db
      .selectFrom("posts as p")
      .innerJoin("postTranslations as t", "t.postId", "p.id")
      .select(["p.authorId", "t.bodyMarkdown"])
      .where("p.id", "=", post.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ authorId: author, bodyMarkdown: "Corrected by the owner." });
    const [newest] = await database.db
      .selectFrom("postRevisions")
      .select(["authorId", "kind"])
      .where("postId", "=", post.id)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute();
    expect(newest).toEqual({ authorId: admin, kind: "saved" });
    // Entries of one millisecond have no order between them: compared as a set.
    const actions = await database.db
      .selectFrom("auditLog")
      .select(["actorEmail", "action"])
      .where("entityId", "=", post.id)
      .orderBy("action")
      .execute();
    expect(actions).toEqual([
      { actorEmail: "author@example.test", action: "post.publish" },
      { actorEmail: "admin@example.test", action: "post.savePending" },
      { actorEmail: "admin@example.test", action: "post.scheduleUpdate" },
      { actorEmail: "system:scheduler", action: "post.update" },
    ]);
  });
});
