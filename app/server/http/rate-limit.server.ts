import { isIPv6 } from "node:net";
import { sql } from "kysely";
import type { DB } from "../db/db.server.ts";

export interface Limit {
  max: number;
  windowMs: number;
}

export interface LimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/** One window's state after a hit: how many hits it holds and when it ends (ms). */
export interface WindowCount {
  count: number;
  expiresAt: number;
}

/**
 * Where the counters live: shared by every instance (the database, or Redis when
 * REDIS_URL is set). `increment` counts one hit atomically, starting a new window
 * of `windowMs` when there is none or the last one ended.
 */
export interface RateLimitStore {
  increment(key: string, windowMs: number, now: number): Promise<WindowCount>;
  /** The current window's state without counting a hit, or null when there is none. Never writes. */
  peek(key: string, now: number): Promise<WindowCount | null>;
}

/** Counters in the `rateLimits` table: one atomic upsert per hit on both dialects. */
export function dbRateLimitStore(db: DB): RateLimitStore {
  return {
    async increment(key, windowMs, now) {
      const windowEnd = now + windowMs;
      const row = await db
        .insertInto("rateLimits")
        .values({ key, count: 1, windowStart: now, expiresAt: windowEnd })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            count: sql<number>`case when "rateLimits"."expiresAt" <= ${now} then 1 else "rateLimits"."count" + 1 end`,
            windowStart: sql<number>`case when "rateLimits"."expiresAt" <= ${now} then ${now} else "rateLimits"."windowStart" end`,
            expiresAt: sql<number>`case when "rateLimits"."expiresAt" <= ${now} then ${windowEnd} else "rateLimits"."expiresAt" end`,
          }),
        )
        .returning(["count", "expiresAt"])
        .executeTakeFirstOrThrow();
      // Now and then, forget windows that ended long ago.
      if (Math.random() < 0.01) {
        await db
          .deleteFrom("rateLimits")
          .where("expiresAt", "<", now - 24 * 3600 * 1000)
          .execute();
      }
      return { count: Number(row.count), expiresAt: Number(row.expiresAt) };
    },
    async peek(key, now) {
      const row = await db
        .selectFrom("rateLimits")
        .select(["count", "expiresAt"])
        .where("key", "=", key)
        .where("expiresAt", ">", now)
        .executeTakeFirst();
      return row ? { count: Number(row.count), expiresAt: Number(row.expiresAt) } : null;
    },
  };
}

/** Counts one hit against `key` in a fixed window, in a store every instance shares. */
export async function hit(store: RateLimitStore, key: string, limit: Limit, now = Date.now()): Promise<LimitResult> {
  const { count, expiresAt } = await store.increment(key, limit.windowMs, now);
  return {
    allowed: count <= limit.max,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((expiresAt - now) / 1000)),
  };
}

/**
 * Whether `key` has already spent its limit in the current window, without counting a hit:
 * for budgets counted after the fact (an inbox activity counts once its signature verified)
 * and checked before the work. A key never counted writes nothing.
 */
export async function spent(store: RateLimitStore, key: string, limit: Limit, now = Date.now()): Promise<LimitResult> {
  const window = await store.peek(key, now);
  const count = window?.count ?? 0;
  return {
    allowed: count < limit.max,
    count,
    retryAfterSeconds: window ? Math.max(1, Math.ceil((window.expiresAt - now) / 1000)) : 0,
  };
}

/**
 * The client address a per-address limit counts against: an IPv4 address as it is (also when
 * written IPv4-mapped), an IPv6 address by its /64, which one subscriber usually holds whole
 * (counting each of its addresses apart would give one client 2^64 budgets).
 */
export function addressBucket(ip: string): string {
  const bare = ip.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(bare)) return bare;
  const [head = "", tail] = bare.split("::");
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const headGroups = groupsOf(head);
  // An IPv4 tail (::1.2.3.4) takes two groups; it is past the first four anyway unless the
  // head is short, and then it is inside the /64's zeros or the interface id.
  const tailGroups = tail === undefined ? [] : groupsOf(tail).flatMap((g) => (g.includes(".") ? ["0", "0"] : [g]));
  const groups =
    tail === undefined
      ? headGroups
      : [
          ...headGroups,
          ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0"),
          ...tailGroups,
        ];
  const prefix = groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}

/** A limit scaled by RATE_LIMIT_MULTIPLIER (tests where one address does everything). */
export function scaled(limit: Limit, multiplier: number): Limit {
  return { ...limit, max: limit.max * multiplier };
}

/** Hits every key; the request is allowed only when all of them allow it. */
export async function hitAll(
  store: RateLimitStore,
  checks: Array<{ key: string; limit: Limit }>,
  now = Date.now(),
): Promise<LimitResult> {
  let worst: LimitResult = { allowed: true, count: 0, retryAfterSeconds: 0 };
  for (const { key, limit } of checks) {
    const result = await hit(store, key, limit, now);
    if (!result.allowed && (worst.allowed || result.retryAfterSeconds > worst.retryAfterSeconds)) worst = result;
  }
  return worst;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The limits on every public write that can be abused. */
export const LIMITS = {
  signInPerIp: { max: 10, windowMs: MINUTE },
  signInPerAccount: { max: 10, windowMs: 15 * MINUTE },
  signUpPerIp: { max: 20, windowMs: HOUR },
  mailPerAccount: { max: 3, windowMs: HOUR },
  mailPerIp: { max: 10, windowMs: HOUR },
  authPostPerIp: { max: 60, windowMs: MINUTE },
  contactPerIp: { max: 5, windowMs: HOUR },
  contactPerAccount: { max: 3, windowMs: HOUR },
  /** Footer subscribe form: posts per client address. */
  subscribePerIp: { max: 10, windowMs: HOUR },
  /** Confirmation mails per subscriber address (more requests get the same answer, no mail). */
  subscribeMailPerEmail: { max: 3, windowMs: HOUR },
  /** Confirm/unsubscribe button presses per client address. */
  subscriberTokenPerIp: { max: 30, windowMs: MINUTE },
  /** Editor previews per admin (the editor sends at most one per pause in typing). */
  previewPerUser: { max: 120, windowMs: MINUTE },
  /** Image uploads per admin (an editor may drop a dozen images at once). */
  uploadPerUser: { max: 60, windowMs: MINUTE },
  /** Account mail to one address, whatever path asks for it (sign-up, change-email, a replayed link…). */
  mailPerAddress: { max: 5, windowMs: HOUR },
  /** A verification link works once: a second use of the same token is refused. */
  tokenUse: { max: 1, windowMs: 24 * HOUR },
  /** New comments and replies per account, over a minute and over an hour. */
  commentPerUserMinute: { max: 5, windowMs: MINUTE },
  commentPerUserHour: { max: 30, windowMs: HOUR },
} satisfies Record<string, Limit>;
