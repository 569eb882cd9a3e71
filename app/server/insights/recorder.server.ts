import { hash } from "node:crypto";
import type { Locale } from "../../lib/i18n/locale.ts";
import { NOT_FOUND_SEPARATOR, SAME_SITE } from "../../lib/insights.ts";
import { isAnonymous } from "../cache/render-cache.server.ts";
import type { DB } from "../db/db.server.ts";
import { dayClock } from "../platform/day-clock.server.ts";
import { addressKey, visitorKey } from "../platform/quick-hash.server.ts";
import { isBotAgent } from "./bots.server.ts";
import {
  countryOf,
  feedReaderOf,
  notFoundKeyOf,
  ownHostsOf,
  referrerOf,
  searchKeyOf,
  sourceOf,
} from "./classify.server.ts";
import { countKey, ensureSalt, type InsightMetric, writeInsightBatch } from "./metrics.server.ts";
import { MAX_VIEWERS_PER_ADDRESS } from "./views.server.ts";

/** One public page read, as the HTTP layer sees it; reduced to counts at once. */
export interface PageRead {
  /** The kind of page ("post", "home", "search" …: classify.server.ts pageKindOf). */
  kind: string;
  /** The post read, when the page is a public post. */
  postId: string | null;
  /** The page's language. */
  locale: Locale;
  /** Used for the visitor hash only, never stored. */
  ip: string;
  userAgent: string | null | undefined;
  referer: string | null | undefined;
  /** The request's Host header: a referrer on the same host is no referrer. */
  host: string | null | undefined;
  /** The URL's query string ("?utm_source=feed"), for the source our own links name. */
  search: string;
  /** The country header's value, when INSIGHTS_COUNTRY_HEADER names one. */
  country: string | null | undefined;
  /** The request's Cookie header: a signed-in admin's reads are not counted. */
  cookie?: string | null | undefined;
}

export interface InsightRecorder {
  /** Counts a page read unless a bot (or nobody) made it. Synchronous, in memory. */
  recordPage(read: PageRead): boolean;
  /** Counts a search and, when it found nothing, a zero-result search. */
  recordSearch(
    query: string,
    results: number,
    userAgent: string | null | undefined,
    cookie?: string | null | undefined,
  ): boolean;
  /** Counts a 404 path with where the link to it was (a host, or "" for none). */
  recordNotFound(
    path: string,
    referer: string | null | undefined,
    host: string | null | undefined,
    userAgent: string | null | undefined,
    cookie?: string | null | undefined,
  ): boolean;
  /**
   * Counts a fetch of a feed (`path`) by a reader app, bots included (feed readers are
   * bots), and the number of subscribers the app reports for that feed, if any.
   */
  recordFeedFetch(path: string, userAgent: string | null | undefined): boolean;
  /** Writes what was counted (and the new visitor hashes) now. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; later reads are ignored. */
  stop(): Promise<void>;
}

export interface InsightRecorderOptions {
  publicUrl: string;
  intervalMs?: number;
  now?: () => Date;
  onError?: (error: unknown) => void;
  /** Distinct keys one batch holds at most (default MAX_PENDING_KEYS). */
  maxPendingKeys?: number;
  /**
   * Whether a Cookie header signs in an admin. Reads that carry one of our cookies wait
   * for the next flush, which asks this once per distinct header (remembered a few
   * minutes), and are dropped when it says yes: the owner's own reading is not a reader's.
   */
  isAdmin?: (cookie: string) => Promise<boolean>;
}

export const INSIGHTS_FLUSH_INTERVAL_MS = 5_000;
/** Visitor hashes this instance already wrote today: not sent again. Forgotten at midnight. */
const MAX_SENT = 100_000;
/**
 * Distinct keys one batch holds at most (5 s of reads): a flood of made-up 404 paths or
 * searches cannot grow memory without bound; what does not fit is not counted.
 */
export const MAX_PENDING_KEYS = 50_000;
/** Reads waiting for their day's salt (the first seconds of a day or of the process). */
const MAX_WAITING = 10_000;
/** Signed-in reads waiting to learn whether an admin made them (one batch's worth). */
const MAX_SIGNED_IN = 10_000;
/** How long whether a Cookie header is an admin's is remembered, and for how many headers. */
const ADMIN_ANSWER_MS = 5 * 60_000;
const MAX_ADMIN_ANSWERS = 1_000;

/** The reader's browser, or null for a bot or a request that names none. */
function readerOf(userAgent: string | null | undefined): string | null {
  return isBotAgent(userAgent) ? null : (userAgent?.trim() ?? null);
}

/** A visitor's hash for a day: nothing but the same address and browser on the same day gives it. */
export function visitorHash(salt: string, day: string, ip: string, userAgent: string): string {
  return hash("sha256", `${salt}\0${day}\0${ip}\0${userAgent}`, "base64url").slice(0, 27);
}

/**
 * Insights recording for one instance: counts in memory, written in batches every few
 * seconds (and on stop) like post views, so reading a page never waits on the database.
 * Unique visitors: a hash of the day's salt (shared through the database by every
 * instance), the address and the browser; the address itself is never kept.
 */
export function createInsightRecorder(db: DB, options: InsightRecorderOptions): InsightRecorder {
  const now = options.now ?? (() => new Date());
  const maxKeys = options.maxPendingKeys ?? MAX_PENDING_KEYS;
  let counts = new Map<string, number>();
  // Counts of which a day keeps the highest (feed subscribers), not the sum.
  let maxima = new Map<string, number>();
  // Page reads by everything counted about them, one entry per combination (a tab-joined
  // day, kind, post, language, referrer, source, country): one map update per read,
  // spread over the daily metrics when written.
  let reads = new Map<string, number>();
  let hashes: Array<{ day: string; hash: string }> = [];
  // Reads made before their day's salt was loaded: hashed at the next flush.
  let waiting: Array<{ day: string; ip: string; ua: string }> = [];
  // Reads by signed-in people, counted (or dropped, for an admin) at the next flush.
  let signedIn: Array<{ cookie: string; count: () => void }> = [];
  const adminAnswers = new Map<string, { admin: boolean; until: number }>();
  const salts = new Map<string, string>();
  const sent = new Set<string>();
  let sentDay = "";
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();
  const today = dayClock(now);
  // Visitor hashes already made today, by a quick hash of address and browser: a
  // reader's next pages skip the sha256 (quick-hash.server.ts).
  const visitorMemo = new Map<string, string>();
  let memoDay = "";
  const visitorOf = (salt: string, day: string, ip: string, ua: string): string => {
    if (day !== memoDay) {
      visitorMemo.clear();
      memoDay = day;
    }
    const key = visitorKey(ip, ua);
    let visitor = visitorMemo.get(key);
    if (visitor === undefined) {
      visitor = visitorHash(salt, day, ip, ua);
      if (visitorMemo.size >= MAX_SENT) visitorMemo.clear();
      visitorMemo.set(key, visitor);
    }
    return visitor;
  };

  const add = (day: string, metric: InsightMetric, key: string, n = 1) => {
    const k = countKey(day, metric, key);
    counts.set(k, (counts.get(k) ?? 0) + n);
  };
  // What readers type (searches, 404 paths) is capped per batch; page reads are capped in `reads`.
  const addTyped = (day: string, metric: InsightMetric, key: string) => {
    if (!counts.has(countKey(day, metric, key)) && counts.size >= maxKeys) return false;
    add(day, metric, key);
    return true;
  };

  // New visitors counted today per address (its in-process hash): one client naming a new
  // browser per request is a few visitors, not one per request (the view counter's limit).
  const perAddress = new Map<string, number>();
  const addVisitor = (day: string, ip: string, hash: string) => {
    if (day !== sentDay) {
      sent.clear();
      perAddress.clear();
      sentDay = day;
    }
    if (sent.has(hash)) return;
    const address = addressKey(ip);
    const known = perAddress.get(address) ?? 0;
    if (known >= MAX_VIEWERS_PER_ADDRESS) return;
    if (sent.size >= MAX_SENT) {
      sent.clear();
      perAddress.clear();
    }
    sent.add(hash);
    perAddress.set(address, known + 1);
    hashes.push({ day, hash });
  };

  /** Counts one page read (a reader's, by now): its daily combination and its visitor. */
  const countPage = (read: PageRead, ua: string, day: string): boolean => {
    const referrer = read.referer ? (referrerOf(read.referer, ownHostsOf(read.host, options.publicUrl)) ?? "") : "";
    const source = sourceOf(read.search) ?? "";
    const country = read.country ? (countryOf(read.country) ?? "") : "";
    const key = `${day}\t${read.kind}\t${read.postId ?? ""}\t${read.locale}\t${referrer}\t${source}\t${country}`;
    const before = reads.get(key);
    if (before === undefined && reads.size >= maxKeys) return false;
    reads.set(key, (before ?? 0) + 1);
    const salt = salts.get(day);
    if (salt) addVisitor(day, read.ip, visitorOf(salt, day, read.ip, ua));
    else if (waiting.length < MAX_WAITING) waiting.push({ day, ip: read.ip, ua });
    return true;
  };

  /** Holds a signed-in read for the flush when admins are left out; else counts it now. */
  const countUnlessAdmin = (cookie: string | null | undefined, count: () => boolean): boolean => {
    if (!options.isAdmin || isAnonymous(cookie) || !cookie) return count();
    if (signedIn.length >= MAX_SIGNED_IN) return false;
    signedIn.push({ cookie, count: () => void count() });
    return true;
  };

  const adminOf = async (cookie: string, at: number): Promise<boolean> => {
    const known = adminAnswers.get(cookie);
    if (known && known.until > at) return known.admin;
    let admin = false;
    try {
      admin = (await options.isAdmin?.(cookie)) ?? false;
    } catch (error) {
      // Whether it was an admin cannot be told now: counted, as a reader's would be.
      options.onError?.(error);
    }
    if (adminAnswers.size >= MAX_ADMIN_ANSWERS) adminAnswers.clear();
    adminAnswers.set(cookie, { admin, until: at + ADMIN_ANSWER_MS });
    return admin;
  };

  const writeBatch = async () => {
    if (signedIn.length > 0) {
      const pending = signedIn;
      signedIn = [];
      const at = now().getTime();
      for (const read of pending) if (!(await adminOf(read.cookie, at))) read.count();
    }
    if (waiting.length > 0) {
      const pending = waiting;
      waiting = [];
      try {
        for (const day of new Set(pending.map((w) => w.day))) {
          if (!salts.has(day)) salts.set(day, await ensureSalt(db, day));
        }
      } catch (error) {
        // The database is away: these reads wait for the next flush, and so do the counts.
        waiting = [...pending, ...waiting].slice(0, MAX_WAITING);
        throw error;
      }
      for (const w of pending) addVisitor(w.day, w.ip, visitorHash(salts.get(w.day) ?? "", w.day, w.ip, w.ua));
      // Only today's salt is needed from now on.
      const current = today();
      for (const day of salts.keys()) if (day < current) salts.delete(day);
    }
    for (const [joined, n] of reads) {
      const [day = "", kind = "", postId = "", locale = "", referrer = "", source = "", country = ""] =
        joined.split("\t");
      add(day, "views", "", n);
      add(day, "page", kind, n);
      add(day, "lang", locale, n);
      if (postId) {
        // The post's own breakdowns, for its charts in the admin (keys: "<post id> <value>").
        add(day, "post", postId, n);
        add(day, "postLang", `${postId} ${locale}`, n);
        if (referrer) add(day, "postReferrer", `${postId} ${referrer}`, n);
        if (source) add(day, "postSource", `${postId} ${source}`, n);
      }
      if (referrer) add(day, "referrer", referrer, n);
      if (source) add(day, "source", source, n);
      if (country) add(day, "country", country, n);
    }
    reads = new Map();
    if (counts.size === 0 && hashes.length === 0 && maxima.size === 0) return;
    const batch = counts;
    const visitors = hashes;
    const highest = maxima;
    counts = new Map();
    hashes = [];
    maxima = new Map();
    try {
      await writeInsightBatch(db, batch, visitors, highest);
    } catch (error) {
      for (const [k, n] of batch) counts.set(k, (counts.get(k) ?? 0) + n);
      for (const [k, n] of highest) maxima.set(k, Math.max(maxima.get(k) ?? 0, n));
      hashes.push(...visitors);
      throw error;
    }
  };

  const flush = () => {
    const next = chain.then(writeBatch);
    chain = next.catch((error: unknown) => options.onError?.(error));
    return next;
  };

  const timer = setInterval(() => {
    flush().catch(() => {});
  }, options.intervalMs ?? INSIGHTS_FLUSH_INTERVAL_MS);
  timer.unref();

  return {
    recordPage(read) {
      if (stopped) return false;
      const ua = readerOf(read.userAgent);
      if (!ua) return false;
      const day = today();
      return countUnlessAdmin(read.cookie, () => countPage(read, ua, day));
    },
    recordSearch(query, results, userAgent, cookie) {
      if (stopped || !readerOf(userAgent)) return false;
      const key = searchKeyOf(query);
      if (!key) return false;
      const day = today();
      return countUnlessAdmin(cookie, () => {
        if (!addTyped(day, "search", key)) return false;
        if (results === 0) addTyped(day, "searchZero", key);
        return true;
      });
    },
    recordNotFound(path, referer, host, userAgent, cookie) {
      if (stopped || !readerOf(userAgent)) return false;
      // A broken link on our own pages is worth knowing: it is named, not dropped.
      const referrer = referer ? (referrerOf(referer, ownHostsOf(host, options.publicUrl)) ?? SAME_SITE) : "";
      const day = today();
      return countUnlessAdmin(cookie, () =>
        addTyped(day, "notFound", `${notFoundKeyOf(path)}${NOT_FOUND_SEPARATOR}${referrer}`),
      );
    },
    recordFeedFetch(path, userAgent) {
      if (stopped) return false;
      const reader = feedReaderOf(userAgent);
      if (!reader) return false;
      const day = today();
      if (!addTyped(day, "feedFetch", reader.app)) return false;
      if (reader.subscribers !== null) {
        const k = countKey(day, "feedSubs", `${notFoundKeyOf(path)} ${reader.app}`);
        if (maxima.has(k) || maxima.size < maxKeys) maxima.set(k, Math.max(maxima.get(k) ?? 0, reader.subscribers));
      }
      return true;
    },
    flush,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await flush().catch(() => {});
    },
  };
}
