import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAuthor, editorInput } from "../../../tests/setup/editing-user.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { EditorInput } from "../../lib/schemas/post.ts";
import type { ChangeTags } from "../cache/content-version.server.ts";
import { changePost } from "./admin-posts.server.ts";
import { type LifecycleActor, SCHEDULER, wirePostLifecycle } from "./lifecycle.server.ts";
import { restoreRevision } from "./pending-edits.server.ts";
import { createEditorPost, type SaveResult, updateEditorPost } from "./post-editor.server.ts";
import { publishDuePosts } from "./publish-scheduled.server.ts";

// Every way a post goes live (the editor's create and save, the admin list, the scheduler) has
// the same effects, because the lifecycle alone has them: one newsletter send, an audit entry
// naming who did it, the search index, every cached page dropped, the Fediverse sync woken.

let database: TestDatabase;
const AUTHOR = "author-lifecycle";
const ADMIN: LifecycleActor = { id: null, email: "admin@example.test" };
/** What the lifecycle told the server's services, in order. */
const told: Array<ChangeTags | "poke"> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // The server's services, as the boot wires them; here they only note what they are told.
  wirePostLifecycle(database.db, {
    content: {
      changed: async (tags: ChangeTags = "all") => {
        told.push(tags);
      },
    },
    federation: { poke: () => told.push("poke") },
  });
});

afterAll(async () => {
  await database.cleanup();
});

function input(title: string, overrides: Partial<EditorInput> = {}): EditorInput {
  return editorInput({ title, body: `Words about ${title}.` }, { newsletter: true, ...overrides });
}

function saved(result: SaveResult): { id: string; version: number } {
  if (!result.ok) throw new Error(`expected a saved post, got ${JSON.stringify(result)}`);
  return { id: result.id, version: result.version };
}

/** A draft with the box ticked, written before the path under test runs. */
async function tickedDraft(title: string): Promise<{ id: string; version: number }> {
  return saved(await createEditorPost(database.db, AUTHOR, input(title), ADMIN));
}

/** What going live did to `postId`, from the database and the services. */
async function effectsOf(postId: string, since: number) {
  const [sends, entries, indexed] = await Promise.all([
    database.db.selectFrom("newsletterSends").select("createdBy").where("postId", "=", postId).execute(),
    database.db
      .selectFrom("auditLog")
      .select(["action", "actorEmail"])
      .where("entityId", "=", postId)
      .where("action", "=", "post.publish")
      .execute(),
    database.db.selectFrom("postSearch").select("locale").where("postId", "=", postId).execute(),
  ]);
  const after = told.slice(since);
  return {
    status: (await database.db.selectFrom("posts").select("status").where("id", "=", postId).executeTakeFirst())
      ?.status,
    newsletterSends: sends.length,
    audit: entries.map((e) => `${e.action} by ${e.actorEmail}`),
    indexed: indexed.map((r) => r.locale),
    pagesDropped: after.filter((t) => t !== "poke"),
    fediverseWoken: after.includes("poke"),
  };
}

const live = (by: string) => ({
  status: "published",
  newsletterSends: 1,
  audit: [`post.publish by ${by}`],
  indexed: ["en"],
  pagesDropped: ["all"],
  fediverseWoken: true,
});

describe(`the post lifecycle (${testDialect()})`, () => {
  it("has the same effects whichever path publishes a post", async () => {
    let since = told.length;
    const created = saved(
      await createEditorPost(database.db, AUTHOR, input("Straight out", { status: "published" }), ADMIN),
    );
    expect(await effectsOf(created.id, since), "the editor, creating").toEqual(live(ADMIN.email));

    const draft = await tickedDraft("Saved live");
    since = told.length;
    saved(
      await updateEditorPost(
        database.db,
        asAuthor(AUTHOR),
        draft.id,
        input("Saved live", { status: "published", version: draft.version }),
        { actor: ADMIN },
      ),
    );
    expect(await effectsOf(draft.id, since), "the editor, saving").toEqual(live(ADMIN.email));

    const listed = await tickedDraft("From the list");
    since = told.length;
    expect(await changePost(database.db, ADMIN, listed.id, { kind: "publish" })).toBe(true);
    expect(await effectsOf(listed.id, since), "the admin list").toEqual(live(ADMIN.email));

    const scheduled = await tickedDraft("On time");
    const at = new Date(Date.now() + 60_000);
    expect(await changePost(database.db, ADMIN, scheduled.id, { kind: "schedule", at: at.toISOString() })).toBe(true);
    since = told.length;
    expect(await publishDuePosts(database.db, new Date(at.getTime() + 1000))).toEqual([scheduled.id]);
    expect(await effectsOf(scheduled.id, since), "the scheduler").toEqual(live(SCHEDULER.email));
  });

  it("starts a post's newsletter once, however often it goes live", async () => {
    const { id } = await tickedDraft("Twice");
    await changePost(database.db, ADMIN, id, { kind: "publish" });
    await changePost(database.db, ADMIN, id, { kind: "unpublish" });
    await changePost(database.db, ADMIN, id, { kind: "publish" });
    expect((await effectsOf(id, told.length)).newsletterSends).toBe(1);
  });

  it("records a restored revision, reindexes it and drops the pages, without publishing it", async () => {
    const first = await tickedDraft("First words");
    const second = saved(
      await updateEditorPost(
        database.db,
        asAuthor(AUTHOR),
        first.id,
        input("Second words", { version: first.version }),
        {
          actor: ADMIN,
          coalesce: false,
        },
      ),
    );
    const oldest = await database.db
      .selectFrom("postRevisions")
      .select("id")
      .where("postId", "=", first.id)
      .orderBy("createdAt", "asc")
      .orderBy("id", "asc")
      .executeTakeFirstOrThrow();
    const since = told.length;
    const restored = await restoreRevision(database.db, asAuthor(AUTHOR), first.id, oldest.id);
    expect(restored.ok).toBe(true);
    const post = await database.db
      .selectFrom("posts")
      .select(["status", "version"])
      .where("id", "=", first.id)
      .executeTakeFirstOrThrow();
    expect([post.status, Number(post.version)]).toEqual(["draft", second.version + 1]);
    const entries = await database.db
      .selectFrom("auditLog")
      .select("action")
      .where("entityId", "=", first.id)
      .orderBy("createdAt", "desc")
      .execute();
    expect(entries[0]?.action).toBe("post.restoreRevision");
    const index = await database.db.selectFrom("postSearch").select("title").where("postId", "=", first.id).execute();
    expect(index.map((r) => r.title)).toEqual(["first words"]);
    expect(told.slice(since)).toEqual([[`post:${first.id}`], "poke"]);
    expect(
      await database.db.selectFrom("newsletterSends").select("id").where("postId", "=", first.id).execute(),
    ).toEqual([]);
  });

  it("leaves no trace of a change that fails", async () => {
    const { id } = await tickedDraft("Refused");
    const since = told.length;
    // A stale version: the save is a conflict, nothing is written and nothing is told.
    const result = await updateEditorPost(
      database.db,
      asAuthor(AUTHOR),
      id,
      input("Refused", { status: "published", version: 999 }),
      { actor: ADMIN },
    );
    expect(result.ok).toBe(false);
    expect(await effectsOf(id, since)).toEqual({
      status: "draft",
      newsletterSends: 0,
      audit: [],
      indexed: ["en"],
      pagesDropped: [],
      fediverseWoken: false,
    });
  });
});
