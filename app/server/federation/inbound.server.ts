import type { InboxContext } from "@fedify/fedify";
import {
  type Actor,
  Announce,
  Article,
  type Create,
  type Delete,
  isActor,
  LanguageString,
  Like,
  Link,
  Note,
  type Undo,
  type Update,
} from "@fedify/vocab";
import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { FederationReactionKind } from "../db/schema.server.ts";
import { HTML_MAX_DEPTH, htmlToMarkdown, tagDepth } from "../import/html-markdown.server.ts";
import { sanitizeCommentHtml } from "../render/markdown.server.ts";
import { getSiteSetting } from "../site/site-settings.server.ts";
import {
  addReaction,
  deleteRemoteReply,
  isBlocked,
  isPublicPost,
  type RemoteActorInput,
  type ReplyTarget,
  removeReaction,
  replyTargetOfNote,
  storeRemoteReply,
  updateRemoteReply,
} from "./inbound-store.server.ts";

// Replies, likes and boosts from the Fediverse (docs/decisions/023-federation.md, "Replies,
// likes, boosts, blocks"). Fedify has checked the request's signature and that its key
// belongs to the activity's actor; each handler checks that the object is that actor's own.

/** What the inbound handlers need besides the database. */
export interface InboundData {
  db: DB;
  /** A post's reader pages changed (a remote comment or a count): drop their cached copies. */
  postChanged(postId: string): Promise<void>;
}

type Ctx = InboxContext<InboundData>;

/** The largest note HTML taken (Mastodon's limit is 500 characters of text). */
export const REMOTE_NOTE_MAX_HTML = 20_000;
/** The text kept for the admin's excerpt and search (the same cap as a local comment). */
const REMOTE_NOTE_MAX_TEXT = 5_000;

function text(value: string | LanguageString | null | undefined): string {
  if (value === null || value === undefined) return "";
  return value instanceof LanguageString ? value.toString() : value;
}

function httpUrl(value: URL | Link | null | undefined): string | null {
  const href = value instanceof Link ? value.href?.href : value?.href;
  if (!href) return null;
  return /^https?:\/\//i.test(href) ? href.slice(0, 1000) : null;
}

/** The parts of a remote account a comment shows (its avatar is stored, never shown: see the decision). */
async function remoteActorOf(ctx: Ctx, actor: Actor): Promise<RemoteActorInput | null> {
  if (actor.id === null) return null;
  const username = text(actor.preferredUsername) || "?";
  let avatarUrl: string | null = null;
  try {
    const icon = await actor.getIcon(ctx);
    avatarUrl = httpUrl(icon?.url);
  } catch {
    avatarUrl = null;
  }
  const server = actor.id.host.toLowerCase();
  const name = text(actor.name).trim() || username;
  return {
    uri: actor.id.href,
    url: httpUrl(actor.url),
    handle: `@${username}@${server}`.slice(0, 300),
    name: name.slice(0, 100),
    avatarUrl,
    server,
  };
}

/** The signed actor of an activity, unless it is blocked (then nothing it sends is taken). */
async function senderOf(ctx: Ctx, activity: Create | Update | Like | Announce): Promise<Actor | null> {
  if (activity.actorId === null) return null;
  if (await isBlocked(ctx.data.db, activity.actorId.href)) return null;
  const actor = await activity.getActor(ctx);
  if (!actor || !isActor(actor) || actor.id?.href !== activity.actorId.href) return null;
  return actor;
}

/** A Note the sender wrote itself: attributed to it and on its own server. */
function ownNote(note: Note, actorId: URL): boolean {
  if (note.id === null || note.attributionId?.href !== actorId.href) return false;
  return note.id.origin === actorId.origin;
}

/** The post an id of ours names (an Article of either language), or null. */
function postOfArticle(ctx: Ctx, uri: URL | null): string | null {
  const parsed = ctx.parseUri(uri);
  if (parsed?.type !== "object" || parsed.class !== Article) return null;
  const id = parsed.values.id;
  return typeof id === "string" ? id : null;
}

/** The note's HTML through the comment sanitiser, and its text (for the admin). Null when unusable. */
function noteBody(note: Note): { html: string; markdown: string } | null {
  const raw = text(note.content);
  if (raw.trim() === "" || raw.length > REMOTE_NOTE_MAX_HTML || tagDepth(raw) > HTML_MAX_DEPTH) return null;
  const html = sanitizeCommentHtml(raw);
  const markdown = htmlToMarkdown(raw).markdown.trim().slice(0, REMOTE_NOTE_MAX_TEXT);
  if (html.trim() === "" || markdown === "") return null;
  return { html, markdown };
}

/** Where a reply to `inReplyTo` goes: under our Article's post, or beside a stored remote reply. */
async function replyTarget(ctx: Ctx, inReplyTo: URL | null): Promise<ReplyTarget | null> {
  if (inReplyTo === null) return null;
  const postId = postOfArticle(ctx, inReplyTo);
  if (postId !== null) return (await isPublicPost(ctx.data.db, postId)) ? { postId, parentId: null } : null;
  return replyTargetOfNote(ctx.data.db, inReplyTo.href);
}

/** A publication date in the past (a note dated in the future is stored as now). */
function pastIso(note: Note): string {
  const now = nowIso();
  const published = note.published?.toString();
  if (!published) return now;
  const time = new Date(published);
  // A date JavaScript cannot hold (year 275760 and on) is taken as now too.
  if (Number.isNaN(time.getTime())) return now;
  const iso = time.toISOString();
  return iso.localeCompare(now) < 0 ? iso : now;
}

export async function onCreate(ctx: Ctx, create: Create, log: Logger): Promise<void> {
  const sender = await senderOf(ctx, create);
  if (!sender?.id) return;
  const note = await create.getObject(ctx);
  if (!(note instanceof Note) || !note.id || !ownNote(note, sender.id)) return;
  const target = await replyTarget(ctx, note.replyTargetId);
  // A reply to a draft, a trashed or unknown post, or to something else: not ours to keep.
  if (!target) return;
  const body = noteBody(note);
  if (!body) return;
  const actor = await remoteActorOf(ctx, sender);
  const noteUrl = httpUrl(note.url) ?? httpUrl(note.id);
  if (!actor || !noteUrl) return;
  const moderation = await getSiteSetting(ctx.data.db, "commentModeration");
  const id = await storeRemoteReply(ctx.data.db, {
    target,
    noteUri: note.id.href,
    noteUrl,
    actor,
    bodyHtml: body.html,
    bodyMarkdown: body.markdown,
    status: moderation === "hold" ? "pending" : "approved",
    createdAt: pastIso(note),
  });
  if (id === null) return; // a replay
  log.info({ comment: id, post: target.postId, actor: actor.uri }, "reply from the Fediverse");
  await ctx.data.postChanged(target.postId);
}

export async function onUpdate(ctx: Ctx, update: Update): Promise<void> {
  if (update.actorId === null || (await isBlocked(ctx.data.db, update.actorId.href))) return;
  const note = await update.getObject(ctx);
  if (!(note instanceof Note) || !note.id || !ownNote(note, update.actorId)) return;
  const body = noteBody(note);
  const noteUrl = httpUrl(note.url) ?? httpUrl(note.id);
  if (!body || !noteUrl) return;
  const postId = await updateRemoteReply(ctx.data.db, {
    noteUri: note.id.href,
    actorUri: update.actorId.href,
    bodyHtml: body.html,
    bodyMarkdown: body.markdown,
    noteUrl,
  });
  if (postId) await ctx.data.postChanged(postId);
}

export async function onDelete(ctx: Ctx, del: Delete): Promise<void> {
  // The object is only named (a Tombstone or an id): it is never fetched, and only its author's Delete counts.
  if (del.actorId === null || del.objectId === null) return;
  const postId = await deleteRemoteReply(ctx.data.db, del.objectId.href, del.actorId.href);
  if (postId) await ctx.data.postChanged(postId);
}

export async function onReaction(ctx: Ctx, activity: Like | Announce): Promise<void> {
  const sender = await senderOf(ctx, activity);
  if (!sender || activity.id === null) return;
  const postId = postOfArticle(ctx, activity.objectId);
  if (postId === null || !(await isPublicPost(ctx.data.db, postId))) return;
  const actor = await remoteActorOf(ctx, sender);
  if (!actor) return;
  const kind: FederationReactionKind = activity instanceof Like ? "like" : "announce";
  if (await addReaction(ctx.data.db, { postId, actor, kind, activityUri: activity.id.href })) {
    await ctx.data.postChanged(postId);
  }
}

/** Undo(Like) and Undo(Announce) by the actor who sent them. True when the Undo was one of those. */
export async function onUndoReaction(ctx: Ctx, undo: Undo, object: unknown): Promise<boolean> {
  if (!(object instanceof Like || object instanceof Announce)) return false;
  if (undo.actorId === null || object.actorId?.href !== undo.actorId.href) return true;
  const postId = await removeReaction(ctx.data.db, {
    actorUri: undo.actorId.href,
    kind: object instanceof Like ? "like" : "announce",
    activityUri: object.id?.href ?? null,
    postId: postOfArticle(ctx, object.objectId),
  });
  if (postId) await ctx.data.postChanged(postId);
  return true;
}
