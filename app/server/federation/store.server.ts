import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { countRows } from "../db/query.server.ts";
import type { FederationActor, Locale } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import { blockedSql } from "./inbound-store.server.ts";

// The Fediverse accounts' rows: key pairs, followers, and what each account has federated.

export const FEDERATION_ACTORS: readonly FederationActor[] = ["zh", "en"];

export function isFederationActor(value: string): value is FederationActor {
  return value === "en" || value === "zh";
}

export interface StoredKeyPair {
  algorithm: "rsa" | "ed25519";
  publicJwk: JsonWebKey;
  privateJwk: JsonWebKey;
}

/** An actor's stored key pairs (RSA first). */
export async function actorKeys(db: DB, actor: FederationActor): Promise<StoredKeyPair[]> {
  const rows = await db
    .selectFrom("federationKeys")
    .select(["algorithm", "publicJwk", "privateJwk"])
    .where("actor", "=", actor)
    .orderBy("algorithm", "desc")
    .execute();
  return rows.map((r) => ({
    algorithm: r.algorithm,
    publicJwk: JSON.parse(r.publicJwk) as JsonWebKey,
    privateJwk: JSON.parse(r.privateJwk) as JsonWebKey,
  }));
}

/**
 * Stores a new key pair unless the actor has one of that kind already (another
 * instance may have made one at the same moment: the first one written wins).
 */
export async function saveActorKey(db: DB, actor: FederationActor, key: StoredKeyPair): Promise<void> {
  await db
    .insertInto("federationKeys")
    .values({
      actor,
      algorithm: key.algorithm,
      publicJwk: JSON.stringify(key.publicJwk),
      privateJwk: JSON.stringify(key.privateJwk),
      createdAt: nowIso(),
    })
    .onConflict((oc) => oc.columns(["actor", "algorithm"]).doNothing())
    .execute();
}

export interface FollowerInput {
  actor: FederationActor;
  followerUri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
  handle: string;
  name: string;
  server: string;
}

/** Adds a follower, or refreshes its inboxes and name when it follows again. */
export async function addFollower(db: DB, input: FollowerInput): Promise<void> {
  const now = nowIso();
  await db
    .insertInto("federationFollowers")
    .values({ id: newId(), ...input, createdAt: now })
    .onConflict((oc) =>
      oc.columns(["actor", "followerUri"]).doUpdateSet({
        inboxUrl: input.inboxUrl,
        sharedInboxUrl: input.sharedInboxUrl,
        handle: input.handle,
        name: input.name,
        server: input.server,
      }),
    )
    .execute();
}

export async function removeFollower(db: DB, actor: FederationActor, followerUri: string): Promise<boolean> {
  const result = await db
    .deleteFrom("federationFollowers")
    .where("actor", "=", actor)
    .where("followerUri", "=", followerUri)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** An actor's followers, the blocked ones left out (the followers collection's count). */
export async function countFollowers(db: DB, actor: FederationActor): Promise<number> {
  return countRows(
    db
      .selectFrom("federationFollowers")
      .where("actor", "=", actor)
      .where((eb) => eb.not(blockedSql("federationFollowers.followerUri", "federationFollowers.server"))),
  );
}

export interface FollowerRecipient {
  followerUri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
}

/**
 * A page of an actor's followers for deliveries and the followers collection, oldest first;
 * blocked actors and servers are left out (unblocking them brings them back).
 */
export async function followerRecipients(
  db: DB,
  actor: FederationActor,
  offset: number,
  limit: number,
): Promise<FollowerRecipient[]> {
  return db
    .selectFrom("federationFollowers")
    .select(["followerUri", "inboxUrl", "sharedInboxUrl"])
    .where("actor", "=", actor)
    .where((eb) => eb.not(blockedSql("federationFollowers.followerUri", "federationFollowers.server")))
    .orderBy("createdAt")
    .orderBy("id")
    .limit(limit)
    .offset(offset)
    .execute();
}

export interface FollowerRow {
  id: string;
  followerUri: string;
  handle: string;
  name: string;
  server: string;
  createdAt: string;
  /** Blocked (the actor or its server): left out of deliveries and the followers collection. */
  blocked: boolean;
}

/** The admin's list of an actor's followers, newest first, the blocked ones marked. */
export async function followersPage(
  db: DB,
  actor: FederationActor,
  opts: { page: number; pageSize: number },
): Promise<AdminPage<FollowerRow>> {
  const total = await countRows(db.selectFrom("federationFollowers").where("actor", "=", actor));
  return adminPage(total, opts, async (limit, offset) => {
    const rows = await db
      .selectFrom("federationFollowers")
      .select([
        "id",
        "followerUri",
        "handle",
        "name",
        "server",
        "createdAt",
        (eb) =>
          eb
            .case()
            .when(blockedSql("federationFollowers.followerUri", "federationFollowers.server"))
            .then(1)
            .else(0)
            .end()
            .as("blocked"),
      ])
      .where("actor", "=", actor)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ ...r, blocked: Number(r.blocked) === 1 }));
  });
}

/** A public post's translation as the Article federated for it. */
export interface FederatedPostSource {
  id: string;
  locale: Locale;
  title: string;
  summary: string;
  bodyHtml: string;
  publishedAt: string;
  updatedAt: string;
  tags: Array<{ slug: string; name: string }>;
  /** The cover: an http(s) URL or a path on this site; null: none. */
  coverImageUrl: string | null;
  coverAlt: string;
}

/** The later of two ISO timestamps (they compare as text). */
function laterIso(a: string, b: string): string {
  return a.localeCompare(b) > 0 ? a : b;
}

/**
 * Public posts' translations published at or after `since` (what federates), or one post's.
 * A post whose "Share on the Fediverse" box is off is never among them.
 */
/**
 * How many posts an account's outbox holds (its `totalItems`: Mastodon shows it as the
 * account's post count): the same posts `federatedPostSources` lists for that language.
 */
export async function countFederatedPosts(db: DB, locale: Locale): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .innerJoin("postTranslations as t", "t.postId", "posts.id")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("posts.status", "=", "published")
    .where("posts.federate", "=", 1)
    .where("posts.deletedAt", "is", null)
    .where("posts.publishedAt", "is not", null)
    .where("t.locale", "=", locale)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function federatedPostSources(
  db: DB,
  opts: { since?: string; postId?: string; locale?: Locale; limit?: number; offset?: number },
): Promise<FederatedPostSource[]> {
  let query = db
    .selectFrom("posts")
    .innerJoin("postTranslations as t", "t.postId", "posts.id")
    .select([
      "posts.id",
      "t.locale",
      "t.title",
      "t.summary",
      "t.bodyHtml",
      "posts.publishedAt",
      "posts.updatedAt",
      "posts.coverImageUrl",
      "posts.coverAlt",
      "t.updatedAt as translationUpdatedAt",
    ])
    .where("posts.status", "=", "published")
    .where("posts.federate", "=", 1)
    .where("posts.deletedAt", "is", null)
    .where("posts.publishedAt", "is not", null);
  if (opts.since) query = query.where("posts.publishedAt", ">=", opts.since);
  if (opts.postId) query = query.where("posts.id", "=", opts.postId);
  if (opts.locale) query = query.where("t.locale", "=", opts.locale);
  query = query.orderBy("posts.publishedAt", "desc").orderBy("posts.id", "desc");
  if (opts.limit !== undefined) query = query.limit(opts.limit).offset(opts.offset ?? 0);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const tagRows = await db
    .selectFrom("postTags")
    .innerJoin("tags", "tags.id", "postTags.tagId")
    .select(["postTags.postId", "tags.slug", "tags.nameEn", "tags.nameZh"])
    .where("postTags.postId", "in", [...new Set(rows.map((r) => r.id))])
    .orderBy("tags.slug")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    locale: r.locale,
    title: r.title,
    summary: r.summary,
    bodyHtml: r.bodyHtml,
    publishedAt: r.publishedAt ?? r.updatedAt,
    updatedAt: laterIso(r.translationUpdatedAt, r.updatedAt),
    tags: tagRows
      .filter((t) => t.postId === r.id)
      .map((t) => ({ slug: t.slug, name: r.locale === "en" ? t.nameEn : t.nameZh })),
    coverImageUrl: r.coverImageUrl,
    coverAlt: r.coverAlt,
  }));
}

export interface FederatedPostRow {
  postId: string;
  actor: FederationActor;
  hash: string;
}

export async function federatedPosts(db: DB): Promise<FederatedPostRow[]> {
  return db.selectFrom("federationPosts").select(["postId", "actor", "hash"]).execute();
}

export async function markFederated(db: DB, row: FederatedPostRow): Promise<void> {
  const now = nowIso();
  await db
    .insertInto("federationPosts")
    .values({ ...row, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.columns(["postId", "actor"]).doUpdateSet({ hash: row.hash, updatedAt: now }))
    .execute();
}

export async function forgetFederated(db: DB, postId: string, actor: FederationActor): Promise<void> {
  await db.deleteFrom("federationPosts").where("postId", "=", postId).where("actor", "=", actor).execute();
}
