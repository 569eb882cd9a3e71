import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { reusableQuery } from "../db/reusable-query.server.ts";
import type { CommentStatus, FederationBlockKind, FederationReactionKind } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import { wherePublic } from "../posts/post-visibility.server.ts";

// What arrives from the Fediverse: remote accounts, replies stored as comments, likes and
// boosts, and the admin's blocks (docs/decisions/023-federation.md, "Replies, likes, boosts,
// blocks"). Every write here is idempotent: a replayed activity changes nothing.

export interface RemoteActorInput {
  uri: string;
  url: string | null;
  handle: string;
  name: string;
  avatarUrl: string | null;
  server: string;
}

/** Stores a remote account, or refreshes its profile when it is seen again. */
export async function saveRemoteActor(db: DB, actor: RemoteActorInput): Promise<void> {
  const now = nowIso();
  const profile = {
    url: actor.url,
    handle: actor.handle,
    name: actor.name,
    avatarUrl: actor.avatarUrl,
    server: actor.server,
    updatedAt: now,
  };
  await db
    .insertInto("federationRemoteActors")
    .values({ uri: actor.uri, ...profile, createdAt: now })
    .onConflict((oc) => oc.column("uri").doUpdateSet(profile))
    .execute();
}

/**
 * True (as SQL) when the remote actor `uriRef` of server `serverRef` is blocked: by its URI,
 * or by its server's host name or a parent domain of it (a port is ignored).
 */
export function blockedSql(uriRef: string, serverRef: string): Expression<SqlBool> {
  const uri = sql.ref(uriRef);
  const server = sql.ref(serverRef);
  return sql<SqlBool>`exists (select 1 from "federationBlocks" as "fb" where ("fb"."kind" = 'actor' and "fb"."value" = ${uri}) or ("fb"."kind" = 'domain' and (${server} = "fb"."value" or ${server} like "fb"."value" || ':%' or ${server} like '%.' || "fb"."value" or ${server} like '%.' || "fb"."value" || ':%')))`;
}

/** "a.b.example" → ["a.b.example", "b.example", "example"]: a domain block covers its subdomains. */
export function domainAndParents(hostname: string): string[] {
  const parts = hostname.toLowerCase().split(".");
  return parts.map((_, i) => parts.slice(i).join(".")).filter((d) => d !== "");
}

/** Whether an actor is blocked: by its URI, or by its server's host name or a parent domain of it. */
export async function isBlocked(db: DB, actorUri: string): Promise<boolean> {
  let hostname: string;
  try {
    hostname = new URL(actorUri).hostname;
  } catch {
    return true;
  }
  const row = await db
    .selectFrom("federationBlocks")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("kind", "=", "actor"), eb("value", "=", actorUri)]),
        eb.and([eb("kind", "=", "domain"), eb("value", "in", domainAndParents(hostname))]),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** Where a reply lands: the post, and the top-level comment it nests under (null: top level). */
export interface ReplyTarget {
  postId: string;
  parentId: string | null;
}

/**
 * The comment a reply to the remote note `noteUri` nests under: the note's own comment when
 * it is top-level, else its parent (one level of replies, as for local comments). Only notes
 * on a public post count.
 */
export async function replyTargetOfNote(db: DB, noteUri: string): Promise<ReplyTarget | null> {
  const row = await db
    .selectFrom("comments as c")
    .innerJoin("posts", "posts.id", "c.postId")
    .select(["c.id", "c.parentId", "c.postId"])
    .where("c.remoteNoteUri", "=", noteUri)
    .where(wherePublic())
    .executeTakeFirst();
  return row ? { postId: row.postId, parentId: row.parentId ?? row.id } : null;
}

/** Whether the post exists and readers can see it (published, not in the trash). */
export async function isPublicPost(db: DB, postId: string): Promise<boolean> {
  const row = await db
    .selectFrom("posts")
    .select("id")
    .where("id", "=", postId)
    .where(wherePublic())
    .executeTakeFirst();
  return row !== undefined;
}

export interface RemoteReplyInput {
  target: ReplyTarget;
  noteUri: string;
  noteUrl: string;
  actor: RemoteActorInput;
  bodyHtml: string;
  bodyMarkdown: string;
  status: CommentStatus;
  createdAt: string;
}

/**
 * Stores a reply from the Fediverse as a comment, with its author's profile. Unique on the
 * note's id: a replayed Create stores nothing. Returns the new comment's id, or null.
 */
export async function storeRemoteReply(db: DB, input: RemoteReplyInput): Promise<string | null> {
  const id = newId();
  return db.transaction().execute(async (trx) => {
    await saveRemoteActor(trx, input.actor);
    const result = await trx
      .insertInto("comments")
      .values({
        id,
        postId: input.target.postId,
        authorId: null,
        parentId: input.target.parentId,
        bodyMarkdown: input.bodyMarkdown,
        bodyHtml: input.bodyHtml,
        status: input.status,
        guestName: input.actor.name,
        remoteNoteUri: input.noteUri,
        remoteActorUri: input.actor.uri,
        remoteUrl: input.noteUrl,
        createdAt: input.createdAt,
        updatedAt: nowIso(),
      })
      .onConflict((oc) => oc.column("remoteNoteUri").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
  });
}

/** Replaces the text of a remote reply, only when `actorUri` wrote it. Returns its post, or null. */
export async function updateRemoteReply(
  db: DB,
  input: { noteUri: string; actorUri: string; bodyHtml: string; bodyMarkdown: string; noteUrl: string },
): Promise<string | null> {
  const row = await db
    .updateTable("comments")
    .set({ bodyHtml: input.bodyHtml, bodyMarkdown: input.bodyMarkdown, remoteUrl: input.noteUrl, updatedAt: nowIso() })
    .where("remoteNoteUri", "=", input.noteUri)
    .where("remoteActorUri", "=", input.actorUri)
    .returning("postId")
    .executeTakeFirst();
  return row?.postId ?? null;
}

/** Deletes a remote reply (and the replies under it), only when `actorUri` wrote it. Returns its post, or null. */
export async function deleteRemoteReply(db: DB, noteUri: string, actorUri: string): Promise<string | null> {
  const row = await db
    .deleteFrom("comments")
    .where("remoteNoteUri", "=", noteUri)
    .where("remoteActorUri", "=", actorUri)
    .returning("postId")
    .executeTakeFirst();
  return row?.postId ?? null;
}

/** Counts a Like or Announce once per post, actor and kind. True when it was new. */
export async function addReaction(
  db: DB,
  input: { postId: string; actor: RemoteActorInput; kind: FederationReactionKind; activityUri: string },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await saveRemoteActor(trx, input.actor);
    const result = await trx
      .insertInto("federationReactions")
      .values({
        postId: input.postId,
        actorUri: input.actor.uri,
        kind: input.kind,
        activityUri: input.activityUri,
        createdAt: nowIso(),
      })
      .onConflict((oc) => oc.columns(["postId", "actorUri", "kind"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

/**
 * Removes the actor's reaction named by the undone activity's id, or, when that id is not
 * known (another server's Undo names it differently), by its post and kind. Returns the post.
 */
export async function removeReaction(
  db: DB,
  input: { actorUri: string; kind: FederationReactionKind; activityUri: string | null; postId: string | null },
): Promise<string | null> {
  if (input.activityUri) {
    const row = await db
      .deleteFrom("federationReactions")
      .where("activityUri", "=", input.activityUri)
      .where("actorUri", "=", input.actorUri)
      .where("kind", "=", input.kind)
      .returning("postId")
      .executeTakeFirst();
    if (row) return row.postId;
  }
  if (!input.postId) return null;
  const row = await db
    .deleteFrom("federationReactions")
    .where("postId", "=", input.postId)
    .where("actorUri", "=", input.actorUri)
    .where("kind", "=", input.kind)
    .returning("postId")
    .executeTakeFirst();
  return row?.postId ?? null;
}

export interface ReactionCounts {
  likes: number;
  boosts: number;
}

/** A post's likes and boosts from the Fediverse, leaving out blocked actors and servers. */
/** A post's likes and boosts by kind (every public post page reads them: compiled once). */
export const reactionRows = reusableQuery(["postId"], (db, v: { postId: string }) =>
  db
    .selectFrom("federationReactions as r")
    .innerJoin("federationRemoteActors as ra", "ra.uri", "r.actorUri")
    .select(["r.kind", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("r.postId", "=", v.postId)
    .where((eb) => eb.not(blockedSql("ra.uri", "ra.server")))
    .groupBy("r.kind"),
);

/**
 * The count of one kind of reaction to the post `postIdRef` names, blocked actors and
 * servers left out as in `reactionRows`: a column of the post page's own row
 * (post-detail.server.ts), so the page needs no statement of its own for them (issue 50).
 */
export function reactionCountSql(postIdRef: string, kind: FederationReactionKind): RawBuilder<number | string> {
  return sql<
    number | string
  >`(select count(*) from "federationReactions" as "r" inner join "federationRemoteActors" as "ra" on "ra"."uri" = "r"."actorUri" where "r"."postId" = ${sql.ref(postIdRef)} and "r"."kind" = ${sql.lit(kind)} and not ${blockedSql("ra.uri", "ra.server")})`;
}

export async function reactionCounts(db: DB, postId: string): Promise<ReactionCounts> {
  const rows = await reactionRows.execute(db, { postId });
  const count = (kind: FederationReactionKind) => Number(rows.find((r) => r.kind === kind)?.n ?? 0);
  return { likes: count("like"), boosts: count("announce") };
}

// ---------------------------------------------------------------------------
// Blocks

export interface BlockRow {
  id: string;
  kind: FederationBlockKind;
  value: string;
  createdAt: string;
}

export async function listBlocks(db: DB): Promise<BlockRow[]> {
  return db
    .selectFrom("federationBlocks")
    .select(["id", "kind", "value", "createdAt"])
    .orderBy("kind")
    .orderBy("value")
    .execute();
}

/** Blocks an actor (its URI) or a domain (host name, lower case). Returns the block's id (the old one if it exists). */
export async function addBlock(db: DB, kind: FederationBlockKind, value: string): Promise<string> {
  await db
    .insertInto("federationBlocks")
    .values({ id: newId(), kind, value, createdAt: nowIso() })
    .onConflict((oc) => oc.columns(["kind", "value"]).doNothing())
    .execute();
  const row = await db
    .selectFrom("federationBlocks")
    .select("id")
    .where("kind", "=", kind)
    .where("value", "=", value)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes a block; returns it (for the audit log), or null when there was none. */
export async function removeBlock(db: DB, id: string): Promise<BlockRow | null> {
  const row = await db
    .deleteFrom("federationBlocks")
    .where("id", "=", id)
    .returning(["id", "kind", "value", "createdAt"])
    .executeTakeFirst();
  return row ?? null;
}
