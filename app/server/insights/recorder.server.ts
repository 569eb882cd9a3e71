import { createHash } from "node:crypto";
import { isbot } from "isbot";
import type { Locale } from "../../lib/i18n/locale.ts";
import { NOT_FOUND_SEPARATOR, SAME_SITE } from "../../lib/insights.ts";
import type { DB } from "../db/db.server.ts";
import { countKey, dayOf, ensureSalt, type InsightMetric, writeInsightBatch } from "../repos/insights.server.ts";
import { countryOf, notFoundKeyOf, ownHostsOf, referrerOf, searchKeyOf, sourceOf } from "./classify.server.ts";

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
}

export interface InsightRecorder {
  /** Counts a page read unless a bot (or nobody) made it. Synchronous, in memory. */
  recordPage(read: PageRead): boolean;
  /** Counts a search and, when it found nothing, a zero-result search. */
  recordSearch(query: string, results: number, userAgent: string | null | undefined): boolean;
  /** Counts a 404 path with where the link to it was (a host, or "" for none). */
  recordNotFound(
    path: string,
    referer: string | null | undefined,
    host: string | null | undefined,
    userAgent: string | null | undefined,
  ): boolean;
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
}

export const INSIGHTS_FLUSH_INTERVAL_MS = 5_000;
/** Visitor hashes this instance already wrote today: not sent again. Forgotten at midnight. */
const MAX_SENT = 100_000;
/** Reads waiting for their day's salt (the first seconds of a day or of the process). */
const MAX_WAITING = 10_000;

function readerOf(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim() ?? "";
  return !ua || isbot(ua) ? null : ua;
}

/** A visitor's hash for a day: nothing but the same address and browser on the same day gives it. */
export function visitorHash(salt: string, day: string, ip: string, userAgent: string): string {
  return createHash("sha256").update(`${salt}\0${day}\0${ip}\0${userAgent}`).digest("base64url").slice(0, 27);
}

/**
 * Insights recording for one instance: counts in memory, written in batches every few
 * seconds (and on stop) like post views, so reading a page never waits on the database.
 * Unique visitors: a hash of the day's salt (shared through the database by every
 * instance), the address and the browser; the address itself is never kept.
 */
export function createInsightRecorder(db: DB, options: InsightRecorderOptions): InsightRecorder {
  const now = options.now ?? (() => new Date());
  let counts = new Map<string, number>();
  let hashes: Array<{ day: string; hash: string }> = [];
  // Reads made before their day's salt was loaded: hashed at the next flush.
  let waiting: Array<{ day: string; ip: string; ua: string }> = [];
  const salts = new Map<string, string>();
  const sent = new Set<string>();
  let sentDay = "";
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  const add = (day: string, metric: InsightMetric, key: string, n = 1) => {
    const k = countKey(day, metric, key);
    counts.set(k, (counts.get(k) ?? 0) + n);
  };

  const addVisitor = (day: string, hash: string) => {
    if (day !== sentDay) {
      sent.clear();
      sentDay = day;
    }
    if (sent.has(hash)) return;
    if (sent.size >= MAX_SENT) sent.clear();
    sent.add(hash);
    hashes.push({ day, hash });
  };

  const writeBatch = async () => {
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
      for (const w of pending) addVisitor(w.day, visitorHash(salts.get(w.day) ?? "", w.day, w.ip, w.ua));
      // Only today's salt is needed from now on.
      const today = dayOf(now());
      for (const day of salts.keys()) if (day < today) salts.delete(day);
    }
    if (counts.size === 0 && hashes.length === 0) return;
    const batch = counts;
    const visitors = hashes;
    counts = new Map();
    hashes = [];
    try {
      await writeInsightBatch(db, batch, visitors);
    } catch (error) {
      for (const [k, n] of batch) counts.set(k, (counts.get(k) ?? 0) + n);
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
      const day = dayOf(now());
      add(day, "views", "");
      add(day, "page", read.kind);
      add(day, "lang", read.locale);
      if (read.postId) add(day, "post", read.postId);
      const referrer = referrerOf(read.referer, ownHostsOf(read.host, options.publicUrl));
      if (referrer) add(day, "referrer", referrer);
      const source = sourceOf(read.search);
      if (source) add(day, "source", source);
      const country = countryOf(read.country);
      if (country) add(day, "country", country);
      const salt = salts.get(day);
      if (salt) addVisitor(day, visitorHash(salt, day, read.ip, ua));
      else if (waiting.length < MAX_WAITING) waiting.push({ day, ip: read.ip, ua });
      return true;
    },
    recordSearch(query, results, userAgent) {
      if (stopped || !readerOf(userAgent)) return false;
      const key = searchKeyOf(query);
      if (!key) return false;
      const day = dayOf(now());
      add(day, "search", key);
      if (results === 0) add(day, "searchZero", key);
      return true;
    },
    recordNotFound(path, referer, host, userAgent) {
      if (stopped || !readerOf(userAgent)) return false;
      // A broken link on our own pages is worth knowing: it is named, not dropped.
      const referrer = referer ? (referrerOf(referer, ownHostsOf(host, options.publicUrl)) ?? SAME_SITE) : "";
      add(dayOf(now()), "notFound", `${notFoundKeyOf(path)}${NOT_FOUND_SEPARATOR}${referrer}`);
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
