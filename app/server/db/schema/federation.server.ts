// Part of the database's one interface (`../schema.server.ts`): The Fediverse: keys, followers, what was federated, remote actors, reactions, blocks, deliveries, Fedify's store and queue.
import type { ColumnType } from "kysely";
import type { Timestamp } from "./common.server.ts";

/** Fedify's key–value store: `key` is the JSON of the key array, `value` JSON. */
export interface FederationKvTable {
  key: string;
  value: string;
  expiresAt: Timestamp | null;
}

/** Fedify's durable message queue (deliveries, fan-out, incoming activities). */
export interface FederationQueueTable {
  id: string;
  /** JSON. */
  message: string;
  orderingKey: string | null;
  runAt: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  /** Set while a worker handles the message; past: the worker died, the message is due again. */
  lockedUntil: Timestamp | null;
  lastError: string | null;
  createdAt: Timestamp;
}

/** The federated accounts: one per language. */
export type FederationActor = "en" | "zh";

export interface FederationKeysTable {
  actor: FederationActor;
  algorithm: "rsa" | "ed25519";
  publicJwk: string;
  privateJwk: string;
  createdAt: Timestamp;
}

export interface FederationFollowersTable {
  id: string;
  actor: FederationActor;
  followerUri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
  /** "@name@server" as the follower's WebFinger handle. */
  handle: string;
  name: string;
  server: string;
  createdAt: Timestamp;
}

/** What an actor has federated of a post: the hash of the Article last sent. */
export interface FederationPostsTable {
  postId: string;
  actor: FederationActor;
  hash: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A remote account that replied, liked or boosted (its avatar is stored, never shown to readers). */
export interface FederationRemoteActorsTable {
  uri: string;
  url: string | null;
  /** "@user@server". */
  handle: string;
  name: string;
  avatarUrl: string | null;
  server: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type FederationReactionKind = "like" | "announce";

/** One Like or Announce of a post per remote actor and kind. */
export interface FederationReactionsTable {
  postId: string;
  actorUri: string;
  kind: FederationReactionKind;
  activityUri: string;
  createdAt: Timestamp;
}

export type FederationBlockKind = "actor" | "domain";

/** A blocked remote actor (`value` its URI) or server (`value` its host name, lower case). */
export interface FederationBlocksTable {
  id: string;
  kind: FederationBlockKind;
  value: string;
  createdAt: Timestamp;
}

/** What became of one delivery attempt to an inbox (the admin's delivery log). */
export type DeliveryOutcome = "sent" | "retrying" | "gave-up" | "skipped";

/** One outbound delivery attempt: pruned by age and count (docs/decisions/023-federation.md). */
export interface FederationDeliveriesTable {
  id: string;
  createdAt: Timestamp;
  /** The inbox's host (with its port). */
  server: string;
  inbox: string;
  activityId: string | null;
  activityType: string;
  outcome: DeliveryOutcome;
  /** 0 for the first attempt. */
  attempt: number;
  /** The HTTP status the inbox answered with, when it answered. */
  status: number | null;
  error: string | null;
}

/** A server whose deliveries fail; dead (no deliveries) from `deadSince` until it is heard from. */
export interface FederationServersTable {
  server: string;
  failingSince: Timestamp;
  lastFailureAt: Timestamp;
  deadSince: Timestamp | null;
}
