import type { FieldErrors } from "../../lib/forms.ts";
import type { EditorInput } from "../../lib/schemas/post.ts";
import { audit } from "../admin/audit.server.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { seriesExists } from "../taxonomy/series.server.ts";
import { type LifecycleActor, SCHEDULER, userActor } from "./lifecycle.server.ts";
import { type EditingUser, editableBy, jobSavingFor } from "./post-access.server.ts";
import {
  checkTaxonomy,
  loadPostForEdit,
  placeInSeries,
  type SaveResult,
  slugOwner,
  updateEditorPost,
} from "./post-editor.server.ts";
import {
  contentOfInput,
  currentRevisionId,
  getRevision,
  inputOfContent,
  pendingRevision,
  recordRevision,
} from "./revisions.server.ts";

/** An editor action outside the post lifecycle (which audits its own), in the audit log. */
function auditPost(
  trx: DB,
  actor: LifecycleActor,
  event: "savePending" | "restoreRevision" | "discardPending" | "scheduleUpdate",
  postId: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  return audit(trx, actor, `post.${event}`, { type: "post", id: postId }, details);
}

/** A revision's input with its series dropped when that series was deleted since. */
async function withLiveSeries(db: DB, input: EditorInput): Promise<EditorInput> {
  if (!input.seriesId || (await seriesExists(db, input.seriesId))) return input;
  return { ...input, seriesId: null, seriesPosition: null };
}

// Editing a live post safely (issue 23): Save on a published post keeps the changes as a
// pending revision; the post, its translations and tags, and so every page readers see,
// stay as they were until Update publishes them through the ordinary save.

export type PendingResult =
  | { ok: true; id: string; version: number; revisionId: string }
  | { ok: false; reason: "invalid"; fieldErrors: FieldErrors }
  | { ok: false; reason: "conflict" }
  | { ok: false; reason: "notFound" };

/** Whether the post, which `user` may edit, is live, so that a Save of it should stay pending. */
export async function isLivePost(db: DB, postId: string, user: EditingUser): Promise<boolean> {
  const row = await db
    .selectFrom("posts")
    .select("status")
    .where("id", "=", postId)
    .where(editableBy(user))
    .where("deletedAt", "is", null)
    .executeTakeFirst();
  return row?.status === "published";
}

/**
 * Keeps the form as the live post's pending revision. Checked like a save (the version the
 * form was loaded at, the category, a typed slug another post has), and the post's version
 * is bumped so a second editor sees a conflict; nothing readers see changes. The revision
 * names `user` and the audit log records the save (`post.savePending`, or the restore's event).
 */
export async function savePendingEdit(
  db: DB,
  user: EditingUser,
  postId: string,
  input: EditorInput,
  revision: { coalesce?: boolean; event?: "savePending" | "restoreRevision" } = {},
): Promise<PendingResult> {
  const existing = await db
    .selectFrom("posts")
    .select(["slug", "publishedAt", "version", "status", "seriesId", "seriesPosition"])
    .where("id", "=", postId)
    .where(editableBy(user))
    .where("deletedAt", "is", null)
    .executeTakeFirst();
  if (!existing) return { ok: false, reason: "notFound" };
  if (input.version === undefined)
    return { ok: false, reason: "invalid", fieldErrors: { form: "editor:errors.invalidForm" } };
  if (input.translations.length === 0)
    return { ok: false, reason: "invalid", fieldErrors: { enTitle: "editor:errors.oneTitleRequired" } };
  const expected = input.version;
  if (Number(existing.version) !== expected) return { ok: false, reason: "conflict" };
  const categoryError = await checkTaxonomy(db, input);
  if (categoryError) return { ok: false, reason: "invalid", fieldErrors: categoryError };
  let slug = existing.slug;
  if (input.slug && input.slug !== existing.slug) {
    const owner = await slugOwner(db, input.slug);
    if (owner && owner !== postId)
      return { ok: false, reason: "invalid", fieldErrors: { slug: "editor:errors.slugTaken" } };
    slug = input.slug;
  }
  const now = nowIso();
  const actor = await userActor(db, user.id);
  // A time typed to the minute of the stored one keeps the stored precision.
  let publishedAt = input.publishAt ?? existing.publishedAt ?? now;
  if (
    existing.publishedAt &&
    Math.floor(Date.parse(existing.publishedAt) / 60_000) * 60_000 === Date.parse(publishedAt)
  )
    publishedAt = existing.publishedAt;
  const revisionId = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("posts")
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", postId)
      .where(editableBy(user))
      .where("version", "=", expected)
      .where("deletedAt", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return null;
    // A new series named here is made now (empty until Update); the post joins it on Update.
    const series = await placeInSeries(trx, input, postId, {
      seriesId: existing.seriesId,
      seriesPosition: existing.seriesPosition === null ? null : Number(existing.seriesPosition),
    });
    const id = await recordRevision(trx, {
      postId,
      authorId: user.id,
      kind: "pending",
      content: contentOfInput(input, slug, publishedAt, series),
      now,
      ...(revision.coalesce === undefined ? {} : { coalesce: revision.coalesce }),
    });
    await auditPost(trx, actor, revision.event ?? "savePending", postId, { revisionId: id });
    return id;
  });
  if (!revisionId) return { ok: false, reason: "conflict" };
  return { ok: true, id: postId, version: expected + 1, revisionId };
}

export type RestoreResult =
  | { ok: true; pending: false; saved: Extract<SaveResult, { ok: true }> }
  | { ok: true; pending: true }
  | { ok: false; reason: "invalid"; fieldErrors: FieldErrors }
  | { ok: false; reason: "conflict" }
  | { ok: false; reason: "notFound" };

/**
 * Saves revision `revisionId`'s text and settings over post `postId`, which `user` may edit,
 * as a new revision. The post keeps its status and publish time (restoring never publishes or
 * unpublishes); a live post gets the revision as its pending changes.
 */
export async function restoreRevision(
  db: DB,
  user: EditingUser,
  postId: string,
  revisionId: string,
): Promise<RestoreResult> {
  const [post, revision] = await Promise.all([loadPostForEdit(db, postId, user), getRevision(db, postId, revisionId)]);
  if (!post || !revision) return { ok: false, reason: "notFound" };
  const input = {
    ...(await withLiveSeries(db, inputOfContent(revision.content, post.version))),
    status: post.status,
    publishAt: post.publishedAt,
    newsletter: post.newsletter,
  };
  if (post.status === "published") {
    const result = await savePendingEdit(db, user, postId, input, { coalesce: false, event: "restoreRevision" });
    return result.ok ? { ok: true, pending: true } : result;
  }
  const result = await updateEditorPost(db, user, postId, input, { coalesce: false, event: "restoreRevision" });
  if (result.ok) return { ok: true, pending: false, saved: result };
  if (result.reason === "invalid") return result;
  if (result.reason === "conflict") return { ok: false, reason: "conflict" };
  return { ok: false, reason: "notFound" };
}

/**
 * Drops the live post's pending changes (every pending revision after the one readers see),
 * if the form was loaded at `version`; bumps the version so other open editors notice.
 */
export async function discardPendingEdit(
  db: DB,
  user: EditingUser,
  postId: string,
  version: number,
): Promise<"discarded" | "conflict" | "notFound"> {
  const actor = await userActor(db, user.id);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("posts")
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", postId)
      .where(editableBy(user))
      .where("version", "=", version)
      .where("deletedAt", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const exists = await trx
        .selectFrom("posts")
        .select("id")
        .where("id", "=", postId)
        .where(editableBy(user))
        .where("deletedAt", "is", null)
        .executeTakeFirst();
      return exists ? "conflict" : "notFound";
    }
    const current = await currentRevisionId(trx, postId);
    const since = current
      ? await trx.selectFrom("postRevisions").select("createdAt").where("id", "=", current).executeTakeFirst()
      : undefined;
    let doomed = trx.deleteFrom("postRevisions").where("postId", "=", postId).where("kind", "=", "pending");
    if (since) doomed = doomed.where("createdAt", ">=", since.createdAt);
    await doomed.execute();
    await auditPost(trx, actor, "discardPending", postId);
    return "discarded";
  });
}

/**
 * Schedules the live post's pending changes to be published at `at` (an ISO time in the
 * future), if the form was loaded at `version`. Saving the changes again cancels it.
 */
export async function schedulePendingUpdate(
  db: DB,
  opts: { user: EditingUser; postId: string; version: number; at: string; now?: Date },
): Promise<"scheduled" | "past" | "noPending" | "conflict" | "notFound"> {
  const post = await db
    .selectFrom("posts")
    .select(["status", "version"])
    .where("id", "=", opts.postId)
    .where(editableBy(opts.user))
    .where("deletedAt", "is", null)
    .executeTakeFirst();
  if (!post) return "notFound";
  if (Number(post.version) !== opts.version) return "conflict";
  if (Date.parse(opts.at) <= (opts.now ?? new Date()).getTime()) return "past";
  const pending = post.status === "published" ? await pendingRevision(db, opts.postId) : null;
  if (!pending) return "noPending";
  const actor = await userActor(db, opts.user.id);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("postRevisions").set({ scheduledFor: opts.at }).where("id", "=", pending.id).execute();
    await auditPost(trx, actor, "scheduleUpdate", opts.postId, { at: opts.at, revisionId: pending.id });
  });
  return "scheduled";
}

/**
 * Publishes every scheduled update whose time has come (the scheduled publisher calls it):
 * the pending revision is saved over its live post like an Update. A schedule whose
 * revision is no longer the pending one, or whose save is refused (its slug was taken since),
 * is dropped rather than retried for ever. Returns the ids of the posts updated.
 */
export async function publishDueUpdates(db: DB, now: Date = new Date()): Promise<string[]> {
  const due = await db
    .selectFrom("postRevisions as r")
    .innerJoin("posts as p", "p.id", "r.postId")
    .select(["r.id", "r.postId", "r.authorId", "p.authorId as postAuthorId"])
    .where("r.kind", "=", "pending")
    .where("r.scheduledFor", "<=", now.toISOString())
    .where("p.status", "=", "published")
    .where("p.deletedAt", "is", null)
    .execute();
  const updated: string[] = [];
  for (const row of due) {
    const drop = () => db.updateTable("postRevisions").set({ scheduledFor: null }).where("id", "=", row.id).execute();
    // The changes are saved in the name of whoever wrote them (an admin may have, on another
    // author's post); the scheduler itself may save over any post.
    const writer = row.authorId ?? row.postAuthorId;
    const saver = writer ? jobSavingFor(writer) : null;
    const [pending, post] = await Promise.all([
      pendingRevision(db, row.postId),
      saver ? loadPostForEdit(db, row.postId, saver) : null,
    ]);
    if (!pending || pending.id !== row.id || !post || !saver) {
      await drop();
      continue;
    }
    const result = await updateEditorPost(
      db,
      saver,
      row.postId,
      {
        ...(await withLiveSeries(db, inputOfContent(pending.content, post.version))),
        status: "published",
        newsletter: post.newsletter,
      },
      { actor: SCHEDULER },
    );
    if (result.ok) updated.push(row.postId);
    // A conflict (someone saved just now) is tried again on the next run.
    else if (result.reason !== "conflict") await drop();
  }
  return updated;
}
