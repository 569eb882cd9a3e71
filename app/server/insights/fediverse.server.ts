import type { Locale } from "../../lib/i18n/locale.ts";
import type { DB } from "../db/db.server.ts";
import type { FederationActor } from "../db/schema.server.ts";
import { blockedSql } from "../federation/inbound-store.server.ts";
import { postTitles } from "./metrics.server.ts";

/** One account's followers: all of them now, and those who followed within the period. */
export interface FollowerReach {
  actor: FederationActor;
  total: number;
  added: number;
}

/** What one post got from the Fediverse within the period. */
export interface PostFediverseReach {
  postId: string;
  title: string | null;
  likes: number;
  boosts: number;
  replies: number;
  /** Reads that came through the link on the post's Article (`?utm_source=fediverse`). */
  reads: number;
}

export interface FediverseReach {
  followers: FollowerReach[];
  posts: PostFediverseReach[];
}

const ACTORS: readonly FederationActor[] = ["zh", "en"];

/**
 * The Fediverse reach of the days `from` to `to` (UTC, inclusive): followers per account,
 * and the posts that got likes, boosts, replies or reads from Fediverse links, most first
 * (at most `limit`). Blocked accounts and servers count for nothing, as on the post page.
 */
export async function insightFediverse(
  db: DB,
  from: string,
  to: string,
  locale: Locale,
  limit = 20,
): Promise<FediverseReach> {
  const start = `${from}T00:00:00.000Z`;
  const end = `${to}T23:59:59.999Z`;
  const [followers, reactions, replies, reads] = await Promise.all([
    db
      .selectFrom("federationFollowers as f")
      .select((eb) => [
        "f.actor",
        eb.fn.countAll<number | string>().as("total"),
        eb.fn.sum<number | string>(eb.case().when("f.createdAt", ">=", start).then(1).else(0).end()).as("added"),
      ])
      .where((eb) => eb.not(blockedSql("f.followerUri", "f.server")))
      .groupBy("f.actor")
      .execute(),
    db
      .selectFrom("federationReactions as r")
      .innerJoin("federationRemoteActors as ra", "ra.uri", "r.actorUri")
      .select((eb) => ["r.postId", "r.kind", eb.fn.countAll<number | string>().as("n")])
      .where("r.createdAt", ">=", start)
      .where("r.createdAt", "<=", end)
      .where((eb) => eb.not(blockedSql("ra.uri", "ra.server")))
      .groupBy(["r.postId", "r.kind"])
      .execute(),
    db
      .selectFrom("comments as c")
      .innerJoin("federationRemoteActors as ra", "ra.uri", "c.remoteActorUri")
      .select((eb) => ["c.postId", eb.fn.countAll<number | string>().as("n")])
      .where("c.remoteNoteUri", "is not", null)
      .where("c.status", "!=", "spam")
      .where("c.createdAt", ">=", start)
      .where("c.createdAt", "<=", end)
      .where((eb) => eb.not(blockedSql("ra.uri", "ra.server")))
      .groupBy("c.postId")
      .execute(),
    db
      .selectFrom("insightCounts")
      .select((eb) => ["key", eb.fn.sum<number | string>("count").as("n")])
      .where("metric", "=", "postSource")
      .where("key", "like", "% fediverse")
      .where("day", ">=", from)
      .where("day", "<=", to)
      .groupBy("key")
      .execute(),
  ]);

  const byPost = new Map<string, Omit<PostFediverseReach, "title">>();
  const entry = (postId: string) => {
    let e = byPost.get(postId);
    if (!e) {
      e = { postId, likes: 0, boosts: 0, replies: 0, reads: 0 };
      byPost.set(postId, e);
    }
    return e;
  };
  for (const r of reactions) {
    if (r.kind === "like") entry(r.postId).likes += Number(r.n);
    else entry(r.postId).boosts += Number(r.n);
  }
  for (const r of replies) entry(r.postId).replies += Number(r.n);
  for (const r of reads) {
    const postId = r.key.slice(0, r.key.lastIndexOf(" "));
    if (postId) entry(postId).reads += Number(r.n);
  }
  const total = (e: Omit<PostFediverseReach, "title">) => e.likes + e.boosts + e.replies + e.reads;
  const top = [...byPost.values()]
    .sort((a, b) => total(b) - total(a) || a.postId.localeCompare(b.postId))
    .slice(0, limit);
  const titles = await postTitles(
    db,
    top.map((e) => e.postId),
    locale,
  );
  return {
    followers: ACTORS.map((actor) => {
      const row = followers.find((f) => f.actor === actor);
      return { actor, total: Number(row?.total ?? 0), added: Number(row?.added ?? 0) };
    }),
    posts: top.map((e) => ({ ...e, title: titles.get(e.postId) ?? null })),
  };
}
