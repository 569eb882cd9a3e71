import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAuthor } from "../../../tests/setup/editing-user.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { EditorInput } from "../../lib/schemas/post.ts";
import { newId } from "../platform/ids.server.ts";
import {
  discardPendingEdit,
  publishDueUpdates,
  savePendingEdit,
  schedulePendingUpdate,
} from "./pending-edits.server.ts";
import { createEditorPost, loadPostForEdit, type SaveResult, updateEditorPost } from "./post-editor.server.ts";
import {
  createPreviewLink,
  hashPreviewToken,
  listPreviewLinks,
  postOfPreviewToken,
  previewPost,
  revokePreviewLink,
} from "./preview-links.server.ts";
import {
  getRevision,
  inputOfContent,
  listRevisions,
  pendingRevision,
  type RevisionContent,
  recordRevision,
} from "./revisions.server.ts";

let database: TestDatabase;
const ALICE = "rev-alice";
const BOB = "rev-bob";

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.cleanup();
});

function input(overrides: Partial<EditorInput> = {}, body = "Old words here."): EditorInput {
  return {
    key: newId(),
    slug: "",
    categoryId: null,
    tags: ["One"],
    coverImageUrl: null,
    coverAlt: "",
    status: "draft",
    publishAt: null,
    translations: [
      { locale: "en", title: "Title", summary: "", bodyMarkdown: body, seoTitle: null, seoDescription: null },
      { locale: "zh", title: "标题", summary: "", bodyMarkdown: "旧的文字", seoTitle: null, seoDescription: null },
    ],
    ...overrides,
  };
}

function saved(result: SaveResult): { id: string; version: number } {
  if (!result.ok) throw new Error(`expected a saved post, got ${JSON.stringify(result)}`);
  return { id: result.id, version: result.version };
}

function content(body: string, status: RevisionContent["status"] = "draft"): RevisionContent {
  return {
    status,
    slug: "s",
    publishedAt: null,
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    seriesId: null,
    seriesPosition: null,
    translations: { en: { title: "T", summary: "", bodyMarkdown: body, seoTitle: null, seoDescription: null } },
  };
}

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 12, minutes)).toISOString();

async function bodies(postId: string): Promise<string[]> {
  const list = await listRevisions(database.db, postId);
  const out: string[] = [];
  for (const r of list)
    out.push((await getRevision(database.db, postId, r.id))?.content.translations.en?.bodyMarkdown ?? "");
  return out;
}

async function publicBody(postId: string): Promise<string> {
  const row = await database.db
    .selectFrom("postTranslations")
    .select("bodyMarkdown")
    .where("postId", "=", postId)
    .where("locale", "=", "en")
    .executeTakeFirstOrThrow();
  return row.bodyMarkdown;
}

describe(`post revisions (${testDialect()})`, () => {
  it("keeps a revision of every save, coalescing one author's saves in a short window", async () => {
    const post = saved(await createEditorPost(database.db, ALICE, input({ slug: "rev-coalesce" })));
    expect(await bodies(post.id)).toEqual(["Old words here."]);
    // A second save straight after replaces the first revision…
    const second = saved(
      await updateEditorPost(database.db, asAuthor(ALICE), post.id, input({ version: post.version }, "Second words.")),
    );
    expect(await bodies(post.id)).toEqual(["Second words."]);
    // …a status change starts a new one.
    saved(
      await updateEditorPost(
        database.db,
        asAuthor(ALICE),
        post.id,
        input({ version: second.version, status: "scheduled", publishAt: "2030-01-01T00:00:00.000Z" }, "Third."),
      ),
    );
    const list = await listRevisions(database.db, post.id);
    expect(list.map((r) => r.status)).toEqual(["scheduled", "draft"]);
  });

  it("starts a new revision after the window, for another author, and for a restore", async () => {
    const postId = saved(await createEditorPost(database.db, ALICE, input({ slug: "rev-window" }))).id;
    await database.db.deleteFrom("postRevisions").where("postId", "=", postId).execute();
    const record = (authorId: string, minutes: number, body: string, coalesce?: boolean) =>
      recordRevision(database.db, {
        postId,
        authorId,
        kind: "saved",
        content: content(body),
        now: at(minutes),
        ...(coalesce === undefined ? {} : { coalesce }),
      });
    await record(ALICE, 0, "a");
    await record(ALICE, 9, "b"); // within 10 minutes of the revision's start: replaces it
    await record(ALICE, 10, "c"); // 10 minutes after it began: a new one
    await record(BOB, 11, "d"); // another author: a new one
    await record(BOB, 12, "e", false); // a restore: always new
    expect(await bodies(postId)).toEqual(["e", "d", "c", "b"]);
  });

  it("prunes the oldest beyond the cap, never the one matching the post", async () => {
    const postId = saved(await createEditorPost(database.db, ALICE, input({ slug: "rev-prune" }))).id;
    await database.db.deleteFrom("postRevisions").where("postId", "=", postId).execute();
    // The post's stored content is revision "live" (the newest saved); pending edits follow.
    await recordRevision(database.db, { postId, authorId: ALICE, kind: "saved", content: content("old"), now: at(0) });
    await recordRevision(database.db, {
      postId,
      authorId: ALICE,
      kind: "saved",
      content: content("live"),
      now: at(20),
    });
    for (let i = 1; i <= 4; i++) {
      await recordRevision(database.db, {
        postId,
        authorId: ALICE,
        kind: "pending",
        content: content(`p${i}`),
        now: at(20 + i * 11),
        cap: 3,
      });
    }
    expect(await bodies(postId)).toEqual(["p4", "p3", "live"]);
  });

  it("restores an old revision as a new one", async () => {
    const first = saved(await createEditorPost(database.db, ALICE, input({ slug: "rev-restore" }, "Version one.")));
    const [oldest] = await listRevisions(database.db, first.id);
    // Move the first revision out of the window so the next save is its own revision.
    await database.db
      .updateTable("postRevisions")
      .set({ createdAt: at(0) })
      .where("postId", "=", first.id)
      .execute();
    saved(
      await updateEditorPost(database.db, asAuthor(ALICE), first.id, input({ version: first.version }, "Version two.")),
    );
    const revision = await getRevision(database.db, first.id, oldest?.id ?? "");
    if (!revision) throw new Error("no revision");
    const current = await loadPostForEdit(database.db, first.id, asAuthor(ALICE));
    const restored = await updateEditorPost(
      database.db,
      asAuthor(ALICE),
      first.id,
      inputOfContent(revision.content, current?.version ?? 0),
      { coalesce: false },
    );
    expect(restored.ok).toBe(true);
    expect(await publicBody(first.id)).toBe("Version one.");
    expect(await bodies(first.id)).toEqual(["Version one.", "Version two.", "Version one."]);
    const current2 = await loadPostForEdit(database.db, first.id, asAuthor(ALICE));
    expect(current2?.tags.map((t) => t.nameEn)).toEqual(["One"]);
    expect(current2?.translations.zh?.bodyMarkdown).toBe("旧的文字");
  });

  it("keeps a live post's edits pending until Update, and refuses a stale version", async () => {
    const post = saved(
      await createEditorPost(database.db, ALICE, input({ slug: "rev-live", status: "published" }, "Readers see this.")),
    );
    const pending = await savePendingEdit(
      database.db,
      asAuthor(ALICE),
      post.id,
      input({ version: post.version, status: "published" }, "Not yet."),
    );
    if (!pending.ok) throw new Error(JSON.stringify(pending));
    expect(await publicBody(post.id)).toBe("Readers see this.");
    expect((await pendingRevision(database.db, post.id))?.content.translations.en?.bodyMarkdown).toBe("Not yet.");
    // The form loaded before the pending save is now stale.
    const stale = await savePendingEdit(database.db, asAuthor(ALICE), post.id, input({ version: post.version }, "x"));
    expect(stale).toEqual({ ok: false, reason: "conflict" });
    // Another author's post does not exist for Bob.
    expect(await savePendingEdit(database.db, asAuthor(BOB), post.id, input({ version: pending.version }))).toEqual({
      ok: false,
      reason: "notFound",
    });
    // Update publishes the changes: the pending revision becomes the live one.
    saved(
      await updateEditorPost(
        database.db,
        asAuthor(ALICE),
        post.id,
        input({ version: pending.version, status: "published" }, "Not yet."),
      ),
    );
    expect(await publicBody(post.id)).toBe("Not yet.");
    expect(await pendingRevision(database.db, post.id)).toBeNull();
    const list = await listRevisions(database.db, post.id);
    expect(list.map((r) => [r.kind, r.status])).toEqual([
      ["saved", "published"],
      ["saved", "published"],
    ]);
  });

  it("discards a live post's pending changes, only at the version the form was loaded at", async () => {
    const post = saved(
      await createEditorPost(database.db, ALICE, input({ slug: "rev-discard", status: "published" }, "Kept.")),
    );
    const pending = await savePendingEdit(
      database.db,
      asAuthor(ALICE),
      post.id,
      input({ version: post.version, status: "published" }, "Dropped."),
    );
    if (!pending.ok) throw new Error(JSON.stringify(pending));
    expect(await discardPendingEdit(database.db, asAuthor(ALICE), post.id, post.version)).toBe("conflict");
    expect(await discardPendingEdit(database.db, asAuthor(BOB), post.id, pending.version)).toBe("notFound");
    expect(await pendingRevision(database.db, post.id)).not.toBeNull();
    expect(await discardPendingEdit(database.db, asAuthor(ALICE), post.id, pending.version)).toBe("discarded");
    expect(await pendingRevision(database.db, post.id)).toBeNull();
    expect(await bodies(post.id)).toEqual(["Kept."]);
    expect(await publicBody(post.id)).toBe("Kept.");
  });

  it("publishes a scheduled update when its time comes; saving again cancels the schedule", async () => {
    const post = saved(
      await createEditorPost(database.db, ALICE, input({ slug: "rev-scheduled", status: "published" }, "Before.")),
    );
    const now = new Date();
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    // Nothing pending yet: nothing to schedule.
    const schedule = (version: number, at: string) =>
      schedulePendingUpdate(database.db, { user: asAuthor(ALICE), postId: post.id, version, at, now });
    expect(await schedule(post.version, later)).toBe("noPending");
    const first = await savePendingEdit(
      database.db,
      asAuthor(ALICE),
      post.id,
      input({ version: post.version, status: "published" }, "After."),
    );
    if (!first.ok) throw new Error(JSON.stringify(first));
    expect(await schedule(first.version, now.toISOString())).toBe("past");
    expect(await schedule(post.version, later)).toBe("conflict");
    expect(await schedule(first.version, later)).toBe("scheduled");
    expect((await pendingRevision(database.db, post.id))?.scheduledFor).toBe(later);
    // Not yet due.
    expect(await publishDueUpdates(database.db, now)).toEqual([]);
    expect(await publicBody(post.id)).toBe("Before.");

    // Saving the changes again cancels the schedule.
    const second = await savePendingEdit(
      database.db,
      asAuthor(ALICE),
      post.id,
      input({ version: first.version, status: "published" }, "After, again."),
    );
    if (!second.ok) throw new Error(JSON.stringify(second));
    expect((await pendingRevision(database.db, post.id))?.scheduledFor).toBeNull();
    expect(await schedule(second.version, later)).toBe("scheduled");

    const due = new Date(Date.parse(later) + 1000);
    expect(await publishDueUpdates(database.db, due)).toEqual([post.id]);
    expect(await publicBody(post.id)).toBe("After, again.");
    expect(await pendingRevision(database.db, post.id)).toBeNull();
    expect(await publishDueUpdates(database.db, due)).toEqual([]);
  });

  it("refuses a pending edit whose slug another post has, writing nothing", async () => {
    saved(await createEditorPost(database.db, ALICE, input({ slug: "rev-taken" })));
    const post = saved(await createEditorPost(database.db, ALICE, input({ slug: "rev-live-2", status: "published" })));
    const result = await savePendingEdit(
      database.db,
      asAuthor(ALICE),
      post.id,
      input({ version: post.version, status: "published", slug: "rev-taken" }),
    );
    expect(result).toEqual({ ok: false, reason: "invalid", fieldErrors: { slug: "editor:errors.slugTaken" } });
    expect(await pendingRevision(database.db, post.id)).toBeNull();
    expect((await loadPostForEdit(database.db, post.id, asAuthor(ALICE)))?.version).toBe(post.version);
  });
});

describe(`preview links (${testDialect()})`, () => {
  it("opens the post until the link expires, stores only the token's hash", async () => {
    const post = saved(await createEditorPost(database.db, ALICE, input({ slug: "preview-expiry" })));
    const now = new Date("2026-11-26T12:00:00.000Z");
    const link = await createPreviewLink(database.db, { postId: post.id, user: asAuthor(ALICE), hours: 1, now });
    if (!link) throw new Error("no link");
    expect(link.expiresAt).toBe("2026-11-26T13:00:00.000Z");
    const stored = await database.db
      .selectFrom("previewLinks")
      .selectAll()
      .where("id", "=", link.id)
      .executeTakeFirstOrThrow();
    expect(stored.tokenHash).toBe(hashPreviewToken(link.token));
    expect(JSON.stringify(stored)).not.toContain(link.token);
    expect(await postOfPreviewToken(database.db, link.token, new Date("2026-11-26T12:59:59.000Z"))).toBe(post.id);
    expect(await postOfPreviewToken(database.db, link.token, new Date("2026-11-26T13:00:00.000Z"))).toBeNull();
    expect(await postOfPreviewToken(database.db, `${link.token.slice(0, -1)}x`, now)).toBeNull();
    expect(await listPreviewLinks(database.db, post.id, new Date("2026-11-26T13:00:01.000Z"))).toEqual([]);
    // Only 1 hour to 30 days, and only on one's own post.
    await expect(
      createPreviewLink(database.db, { postId: post.id, user: asAuthor(ALICE), hours: 0 }),
    ).rejects.toThrow();
    await expect(
      createPreviewLink(database.db, { postId: post.id, user: asAuthor(ALICE), hours: 721 }),
    ).rejects.toThrow();
    expect(await createPreviewLink(database.db, { postId: post.id, user: asAuthor(BOB), hours: 48 })).toBeNull();
  });

  it("stops opening once revoked, only by the post's author", async () => {
    const post = saved(await createEditorPost(database.db, ALICE, input({ slug: "preview-revoke" })));
    const link = await createPreviewLink(database.db, { postId: post.id, user: asAuthor(ALICE), hours: 48 });
    if (!link) throw new Error("no link");
    expect((await listPreviewLinks(database.db, post.id)).map((l) => l.id)).toEqual([link.id]);
    expect(await revokePreviewLink(database.db, { postId: post.id, user: asAuthor(BOB), id: link.id })).toBe(false);
    expect(await postOfPreviewToken(database.db, link.token)).toBe(post.id);
    expect(await revokePreviewLink(database.db, { postId: post.id, user: asAuthor(ALICE), id: link.id })).toBe(true);
    expect(await postOfPreviewToken(database.db, link.token)).toBeNull();
    expect(await listPreviewLinks(database.db, post.id)).toEqual([]);
    expect(await revokePreviewLink(database.db, { postId: post.id, user: asAuthor(ALICE), id: link.id })).toBe(false);
  });

  it("shows a live post's pending changes, rendered, while readers keep the stored text", async () => {
    const post = saved(
      await createEditorPost(
        database.db,
        ALICE,
        input({ slug: "preview-live", status: "published" }, "Stored **text**."),
      ),
    );
    expect((await previewPost(database.db, post.id, "en"))?.translation.bodyHtml).toContain("<strong>text</strong>");
    const pending = await savePendingEdit(
      database.db,
      asAuthor(ALICE),
      post.id,
      input({ version: post.version, status: "published", tags: ["Fresh tag"] }, "Pending *words*."),
    );
    expect(pending.ok).toBe(true);
    const shown = await previewPost(database.db, post.id, "en");
    expect(shown?.translation.bodyHtml).toContain("<em>words</em>");
    expect(shown?.tags.map((t) => t.name)).toEqual(["Fresh tag"]);
    expect(await publicBody(post.id)).toBe("Stored **text**.");
  });
});
