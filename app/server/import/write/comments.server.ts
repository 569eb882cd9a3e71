import type { Insertable, Transaction } from "kysely";
import { MarkdownTooDeep, withinNesting } from "../../../lib/markdown-depth.ts";
import { COMMENT_MAX_LENGTH } from "../../../lib/schemas/comment.ts";
import type { Database } from "../../db/schema.server.ts";
import { newId } from "../../platform/ids.server.ts";
import type { ImportedComment, ImportedPost, ImportReportLine } from "../core.server.ts";
import type { ImportJob, Prepared } from "../job/types.server.ts";
import { inSlices } from "../slices.server.ts";

// A post's imported comments: cut and rendered as the comment form would take them (before the
// chunk's transaction), then written once each (mapped as entity `comment`) inside it.

/** What the report calls an imported comment. */
const commentItem = (post: ImportedPost, c: ImportedComment) => `${post.label} comment ${c.sourceId}`;

/**
 * The comments to render as the comment form would take them: a body over the form's limit is
 * cut, one nested too deeply is left out; both with a report line. Rendered on this thread
 * (renderComments) once the bodies are back from the renderer.
 */
export function commentBodies(post: ImportedPost, lines: ImportReportLine[]): ImportedComment[] {
  const out: ImportedComment[] = [];
  for (const c of post.comments ?? []) {
    const item = commentItem(post, c);
    let body = c.bodyMarkdown.trim();
    if (!body) continue;
    if (body.length > COMMENT_MAX_LENGTH) {
      body = body.slice(0, COMMENT_MAX_LENGTH).trimEnd();
      lines.push({ item, outcome: "note", reason: "commentCut", detail: `cut to ${COMMENT_MAX_LENGTH} characters` });
    }
    if (!withinNesting(body)) {
      lines.push({ item, outcome: "note", reason: "commentTooDeep" });
      continue;
    }
    out.push({ ...c, bodyMarkdown: body });
  }
  return out;
}

/** Comments rendered as the comment form does (sanitised Markdown); one the parser finds too deep is left out. */
export function renderComments(
  post: ImportedPost,
  comments: readonly ImportedComment[],
  lines: ImportReportLine[],
  markdown: { renderCommentParts(markdown: string): { html: string } },
): Prepared["comments"] {
  const out: Prepared["comments"] = [];
  for (const c of comments) {
    try {
      out.push({ ...c, bodyHtml: markdown.renderCommentParts(c.bodyMarkdown).html });
    } catch (error) {
      if (!(error instanceof MarkdownTooDeep)) throw error;
      lines.push({ item: commentItem(post, c), outcome: "note", reason: "commentTooDeep" });
    }
  }
  return out;
}

/**
 * Writes a post's imported comments that are not written yet (mapped as entity `comment`), in
 * the chunk's transaction. A comment deleted here since is not brought back while its post
 * lives (moderation here wins); a reply whose parent is missing becomes a top-level comment.
 */
export async function writeComments(
  trx: Transaction<Database>,
  job: ImportJob,
  p: Prepared,
  postId: string,
  postIsNew: boolean,
  now: string,
): Promise<number> {
  const ours = new Map<string, string>();
  // A new post has no comments yet: every comment of it is written, mapped before or not (its
  // old mapping points at a comment of a post that is gone), so nothing needs looking up.
  const mappedTo = new Map<string, string>();
  const live = new Set<string>();
  if (!postIsNew && p.comments.length > 0) {
    await inSlices(p.comments, async (slice) => {
      const rows = await trx
        .selectFrom("importSources")
        .select(["sourceId", "targetId"])
        .where("source", "=", job.kind)
        .where("entity", "=", "comment")
        .where(
          "sourceId",
          "in",
          slice.map((c) => c.sourceId),
        )
        .execute();
      for (const r of rows) mappedTo.set(r.sourceId, r.targetId);
    });
    const targets = [...new Set(mappedTo.values())];
    await inSlices(targets, async (slice) => {
      const rows = await trx
        .selectFrom("comments")
        .select("id")
        .where("id", "in", slice)
        .where("postId", "=", postId)
        .execute();
      for (const r of rows) live.add(r.id);
    });
  }
  const comments: Insertable<Database["comments"]>[] = [];
  const mappings: Insertable<Database["importSources"]>[] = [];
  for (const c of p.comments) {
    // A source id twice in one post: the first one stands (as when each was looked up in turn).
    if (ours.has(c.sourceId)) continue;
    const mapped = mappedTo.get(c.sourceId);
    if (mapped !== undefined) {
      if (live.has(mapped)) {
        ours.set(c.sourceId, mapped);
        continue;
      }
      // Deleted here since: moderation here wins while the post lives.
      if (!postIsNew) continue;
    }
    const parentId = c.parentSourceId ? (ours.get(c.parentSourceId) ?? null) : null;
    const id = newId();
    comments.push({
      id,
      postId,
      authorId: null,
      parentId,
      bodyMarkdown: c.bodyMarkdown,
      bodyHtml: c.bodyHtml,
      status: c.status,
      guestName: c.authorName.slice(0, 100) || null,
      guestEmail: c.authorEmail?.slice(0, 254) ?? null,
      guestUrl: c.authorUrl?.slice(0, 500) ?? null,
      createdAt: c.createdAt,
      updatedAt: now,
    });
    mappings.push({
      source: job.kind,
      entity: "comment",
      sourceId: c.sourceId,
      targetId: id,
      hash: "",
      targetVersion: 1,
      updatedAt: now,
      createdAt: now,
    });
    ours.set(c.sourceId, id);
  }
  // Parents come before their replies in the list, so a batch never refers to a later one.
  await inSlices(comments, (slice) => trx.insertInto("comments").values(slice).execute());
  await inSlices(mappings, (slice) =>
    trx
      .insertInto("importSources")
      .values(slice)
      .onConflict((oc) =>
        oc.columns(["source", "entity", "sourceId"]).doUpdateSet((eb) => ({
          targetId: eb.ref("excluded.targetId"),
          hash: "",
          targetVersion: 1,
          updatedAt: now,
        })),
      )
      .execute(),
  );
  return comments.length;
}
