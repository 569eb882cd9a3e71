import { createHash } from "node:crypto";
import type { KvStore } from "@fedify/fedify";
import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { FederationActor } from "../db/schema.server.ts";
import { type LeasedJob, startLeasedJob } from "../jobs/lease.server.ts";
import type { Env } from "../platform/env.server.ts";
import type { RedisClient } from "../shared-state/redis.server.ts";
import { getSiteSetting } from "../site/site-settings.server.ts";
import { DeliveryLog } from "./deliveries.server.ts";
import type { FederationData, InkwellFederation } from "./federation.server.ts";
import { DatabaseKvStore } from "./kv.server.ts";
import { DELIVERY_ATTEMPTS, PERMANENT_FAILURE_STATUSES } from "./paths.server.ts";
import { DatabaseMessageQueue } from "./queue.server.ts";
import { RedisKvStore, RedisMessageQueue } from "./redis-store.server.ts";
import {
  federatedPostSources,
  federatedPosts,
  forgetFederated,
  isFederationActor,
  markFederated,
} from "./store.server.ts";

/**
 * Why federation is on or off. The environment wins over the admin switch; neither
 * turns it on while PUBLIC_URL is not https (other servers only talk to https).
 */
export type FederationReason = "env-on" | "env-off" | "switch-on" | "switch-off" | "needs-https";

export interface FederationStatus {
  on: boolean;
  reason: FederationReason;
}

export function federationStatus(
  env: Pick<Env, "federation" | "publicUrl">,
  switchOn: boolean,
  allowHttp = false,
): FederationStatus {
  if (env.federation === "off") return { on: false, reason: "env-off" };
  if (!allowHttp && new URL(env.publicUrl).protocol !== "https:") return { on: false, reason: "needs-https" };
  if (env.federation === "on") return { on: true, reason: "env-on" };
  return switchOn ? { on: true, reason: "switch-on" } : { on: false, reason: "switch-off" };
}

/** Tests only (tests/setup/federation-server.ts): loopback peers over plain http. */
export interface FederationTestMode {
  allowPrivateAddress: true;
  allowHttp: true;
  /** A failed delivery's first retry, shortened so a test sees it. */
  retryInitialMs?: number;
  /** How long a server fails before it is given up as dead, shortened so a test sees it. */
  deadAfterMs?: number;
  /**
   * A queue message whose handler threw (a busy database, not a failed delivery) waits this
   * long before its retry, shortened so a transient error on a loaded test machine costs a
   * test half a second instead of the production 30 s.
   */
  queueBackoffMs?: number;
}

export interface FederationService {
  /**
   * Fedify's federation, made on first use: Fedify and its vocabulary (~60 MiB of
   * resident memory) are imported then, not at boot, so a blog that does not federate
   * never loads them. The first call also starts the queue worker once `start()` ran.
   */
  load(): Promise<InkwellFederation>;
  /** Whether Fedify has been loaded in this process (tests, the memory check). */
  loaded(): boolean;
  /** In the database, or in Redis when REDIS_URL is set. */
  queue: DatabaseMessageQueue | RedisMessageQueue;
  data: FederationData;
  status(): Promise<FederationStatus>;
  /** The status for a switch value already read (readers' pages have the settings at hand). */
  statusFor(switchOn: boolean): FederationStatus;
  /** Sends what changed since the last run: Create, Update or Delete per post and language. */
  syncPosts(): Promise<SyncResult>;
  /** Runs the post sync soon (after a content change). */
  poke(): void;
  /** Each delivery attempt's outcome, and the servers given up as dead. */
  deliveries: DeliveryLog;
  /** A verified activity came from this server (host): deliveries to it resume if it was dead. */
  heardFrom(server: string): Promise<void>;
  /** Starts the queue worker and the post sync on this instance (each on its lease). */
  start(): void;
  stop(): Promise<void>;
}

export interface SyncResult {
  created: number;
  updated: number;
  deleted: number;
}

/** Where the first sync wrote down when federation began: posts published before are not sent. */
const SINCE_KEY = ["inkwell", "federating-since"] as const;
export const POST_SYNC_LEASE = "federation-posts";
export const QUEUE_POLL_MS = 5_000;

interface Fedified {
  mod: typeof import("./federation.server.ts");
  federation: InkwellFederation;
}

function versionHash(parts: readonly string[]): string {
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32);
}

export function createFederationService(opts: {
  db: DB;
  env: Env;
  log: Logger;
  testMode?: FederationTestMode;
  syncIntervalMs?: number;
  queuePollMs?: number;
  /** A remote reply, like or boost changed what a post's pages show (their cached copies go). */
  onPostChanged?: (postId: string) => Promise<void>;
  /** Redis (REDIS_URL) and the site's key prefix: Fedify's store and queue live there then. */
  redis?: { client: RedisClient; prefix: string } | null;
}): FederationService {
  const { db, env, log, testMode, redis } = opts;
  // New messages wake the worker on this instance; the worker also looks every few seconds
  // (messages queued on other instances, retries that have come due). In the database only
  // the lease holder works; in Redis every instance does.
  const queueOptions = {
    log,
    pollMs: opts.queuePollMs ?? Math.min(QUEUE_POLL_MS, env.schedulerIntervalMs),
    ...(testMode?.queueBackoffMs ? { backoffMs: testMode.queueBackoffMs } : {}),
  };
  const queue = redis
    ? new RedisMessageQueue(redis.client, redis.prefix, queueOptions)
    : new DatabaseMessageQueue(db, queueOptions);
  const kv: KvStore = redis ? new RedisKvStore(redis.client, redis.prefix) : new DatabaseKvStore(db);
  const deliveries = new DeliveryLog({
    db,
    log,
    maxAttempts: DELIVERY_ATTEMPTS,
    permanentStatuses: PERMANENT_FAILURE_STATUSES,
    ...(testMode?.deadAfterMs ? { deadAfterMs: testMode.deadAfterMs } : {}),
  });
  const data: FederationData = {
    db,
    postChanged: async (postId) => {
      await opts.onPostChanged?.(postId);
    },
  };
  // Our own marks stay in the database even with Redis: losing "federating-since" (a Redis
  // flush, a move to Redis) would make every post sent before look deleted to the sync.
  const marks = new DatabaseKvStore(db);
  let sync: LeasedJob | null = null;
  let abort: AbortController | null = null;
  let queueDone: Promise<void> | null = null;
  let loading: Promise<Fedified> | null = null;
  let made: Fedified | null = null;

  const startQueue = (federation: InkwellFederation) => {
    if (!abort || queueDone) return;
    queueDone = federation.startQueue(data, { signal: abort.signal });
  };
  const fedify = (): Promise<Fedified> => {
    loading ??= import("./federation.server.ts").then((mod) => {
      const federation = mod.createInkwellFederation({
        db,
        env,
        log,
        queue: deliveries.wrap(queue),
        kv,
        onOutboxError: deliveries.onOutboxError,
        ...(testMode ? { allowPrivateAddress: true } : {}),
        ...(testMode?.retryInitialMs ? { retryInitialMs: testMode.retryInitialMs } : {}),
      });
      made = { mod, federation };
      startQueue(federation);
      return made;
    });
    // A failed import is tried again on the next use.
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };

  const statusFor = (switchOn: boolean): FederationStatus =>
    federationStatus(env, switchOn, testMode?.allowHttp === true);
  const status = async (): Promise<FederationStatus> => statusFor((await getSiteSetting(db, "fediverse")).enabled);

  const syncPosts = async (): Promise<SyncResult> => {
    const result: SyncResult = { created: 0, updated: 0, deleted: 0 };
    if (!(await status()).on) return result;
    await deliveries.prune();
    let since = await marks.get<string>(SINCE_KEY);
    if (since === undefined) {
      since = nowIso();
      await marks.set(SINCE_KEY, since);
    }
    const { mod, federation } = await fedify();
    const { buildArticle, createActivity, deleteActivity, updateActivity } = mod;
    const ctx = federation.createContext(new URL(env.publicUrl), data);
    const sources = await federatedPostSources(db, { since });
    const sent = new Map((await federatedPosts(db)).map((r) => [`${r.postId}:${r.actor}`, r]));
    const live = new Set<string>();
    for (const post of sources) {
      const actor: FederationActor = post.locale;
      const key = `${post.id}:${actor}`;
      live.add(key);
      const hash = versionHash([
        post.title,
        post.summary,
        post.bodyHtml,
        post.publishedAt,
        ...post.tags.map((t) => `${t.slug}=${t.name}`),
        // Only posts with a cover hash it: the ones without keep the hash they were sent with.
        ...(post.coverImageUrl ? [`cover=${post.coverImageUrl}`, `alt=${post.coverAlt}`] : []),
      ]);
      const before = sent.get(key);
      if (before?.hash === hash) continue;
      const article = buildArticle(ctx, post, env.publicUrl);
      // Sent before marked: a crash in between sends it again (remote servers dedupe by id), never loses it.
      const activity = before ? updateActivity(ctx, article, actor) : createActivity(ctx, article, actor);
      await ctx.sendActivity({ identifier: actor }, "followers", activity, {
        preferSharedInbox: true,
        orderingKey: article.id?.href,
      });
      await markFederated(db, { postId: post.id, actor, hash });
      if (before) result.updated++;
      else result.created++;
    }
    for (const [key, row] of sent) {
      if (live.has(key) || !isFederationActor(row.actor)) continue;
      const activity = deleteActivity(ctx, row.postId, row.actor);
      await ctx.sendActivity({ identifier: row.actor }, "followers", activity, {
        preferSharedInbox: true,
        orderingKey: activity.objectId?.href,
      });
      await forgetFederated(db, row.postId, row.actor);
      result.deleted++;
    }
    if (result.created + result.updated + result.deleted > 0) log.info(result, "federated post changes");
    return result;
  };

  return {
    load: async () => (await fedify()).federation,
    loaded: () => made !== null,
    queue,
    data,
    status,
    statusFor,
    syncPosts,
    poke: () => sync?.poke(),
    deliveries,
    heardFrom: (server) => deliveries.heardFrom(server),
    start() {
      abort = new AbortController();
      if (made) startQueue(made.federation);
      else {
        // Fedify stays unloaded until federation is used; messages left in the queue
        // (federation switched off while deliveries were pending) still go out.
        void (async () => {
          const depth = await queue.getDepth();
          if ((await status()).on || depth.queued > 0) await fedify();
        })().catch((error: unknown) => log.error({ err: error }, "could not start the federation queue"));
      }
      sync = startLeasedJob(db, log, {
        name: POST_SYNC_LEASE,
        intervalMs: opts.syncIntervalMs ?? env.schedulerIntervalMs,
        run: async () => {
          await syncPosts();
        },
      });
    },
    async stop() {
      await sync?.stop();
      sync = null;
      abort?.abort();
      abort = null;
      await loading?.catch(() => {});
      await queueDone;
      queueDone = null;
    },
  };
}
