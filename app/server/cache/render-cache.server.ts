import { createHash, randomBytes } from "node:crypto";

/**
 * Rendered pages for anonymous readers, in memory: the body, the headers that
 * describe it, and the side effects a render had (a post view, ad impressions)
 * so a cache hit can count them too. Bounded by bytes, least recently used first.
 */
export interface RequestEffects {
  /** The post whose page was read (counted as a view on every hit). */
  viewedPost: string | null;
  /** Ads shown on the page (an impression each on every hit). */
  ads: string[];
  /**
   * When something on the page changes by itself (ms since epoch, or Infinity): the
   * earliest start or end of a time window it depends on (a slide's, an ad's).
   */
  expiresAt: number;
  /**
   * What the page shows that a narrow change can make stale (`post:<id>`): such a
   * change drops only the pages carrying its tags. Every page is dropped by a change
   * to "all" (settings, menus, publishing, an edit).
   */
  tags: string[];
  /** The search the page ran (its first page only): counted by Insights on every hit. */
  search: { query: string; results: number } | null;
}

export function newEffects(): RequestEffects {
  return { viewedPost: null, ads: [], expiresAt: Number.POSITIVE_INFINITY, tags: [], search: null };
}

/** Notes that the page changes by itself at `when` (an ISO time; null or past times are ignored). */
export function changesAt(effects: RequestEffects, when: string | null | undefined, now = Date.now()): void {
  if (!when) return;
  const at = Date.parse(when);
  if (Number.isFinite(at) && at > now && at < effects.expiresAt) effects.expiresAt = at;
}

export interface CachedPage {
  status: number;
  /** Body with every occurrence of the render's CSP nonce replaced by `NONCE_SENTINEL`. */
  body: Buffer;
  contentType: string;
  etag: string;
  cacheControl: string;
  effects: RequestEffects;
  /**
   * Content version it was rendered at. A page is kept only when no change came
   * during its render; after that, only a change naming one of its tags drops it.
   */
  version: number;
  /** When it stops being served (ms since epoch), or Infinity. */
  expiresAt: number;
  bytes: number;
  /** The body cut at each placeholder: a hit joins them around its own nonce without re-encoding. */
  parts: Buffer[];
}

/** Stands in for the nonce in stored pages; random per process, never in real content. */
export const NONCE_SENTINEL = `__inkwell_nonce_${randomBytes(12).toString("hex")}__`;

/** Pages that show ads are re-rendered this often, so ads keep rotating by weight. */
export const AD_PAGE_TTL_MS = 10_000;

/** A strong validator for a body (with the nonce sentinel in place of the nonce). */
export function strongEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

const SENTINEL_BYTES = Buffer.from(NONCE_SENTINEL, "utf8");

/** A stored body cut at each nonce placeholder. */
export function splitAtNonce(body: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(SENTINEL_BYTES, from); at !== -1; at = body.indexOf(SENTINEL_BYTES, from)) {
    parts.push(body.subarray(from, at));
    from = at + SENTINEL_BYTES.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

/**
 * The stored parts with a response's own nonce between them, uncopied: a hit writes these
 * one after another instead of joining a fresh copy of the page for every response (a
 * page-sized allocation per hit, which kept V8's collector busy under load).
 */
export function piecesWithNonce(parts: readonly Buffer[], nonce: string): Buffer[] {
  if (parts.length <= 1) return [...parts];
  const value = Buffer.from(nonce, "utf8");
  const pieces: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(value);
    pieces.push(part);
  });
  return pieces;
}

/**
 * The body cut at each occurrence of `nonce`, matched as bytes (a nonce is ASCII, so a
 * byte match is a character match in UTF-8): one piece when it does not occur.
 */
function cutAt(body: Buffer, nonce: string): Buffer[] {
  if (!nonce) return [body];
  const needle = Buffer.from(nonce, "utf8");
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle, from); at !== -1; at = body.indexOf(needle, from)) {
    pieces.push(body.subarray(from, at));
    from = at + needle.length;
  }
  if (from === 0) return [body];
  pieces.push(body.subarray(from));
  return pieces;
}

/** Takes a render's nonce out of its body before it is stored (no string round trip). */
export function withoutNonce(body: Buffer, nonce: string): Buffer {
  const pieces = cutAt(body, nonce);
  if (pieces.length === 1) return body;
  const joined: Buffer[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0) joined.push(SENTINEL_BYTES);
    joined.push(piece);
  });
  return Buffer.concat(joined);
}

/**
 * `strongEtag(withoutNonce(body, nonce))`, hashed piece by piece without making the
 * stored copy: what a page that is not kept (render cache off) needs.
 */
export function strongEtagWithoutNonce(body: Buffer, nonce: string): string {
  const hash = createHash("sha256");
  cutAt(body, nonce).forEach((piece, i) => {
    if (i > 0) hash.update(SENTINEL_BYTES);
    hash.update(piece);
  });
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}

export interface RenderCache {
  get(key: string, now?: number): CachedPage | null;
  set(key: string, page: Omit<CachedPage, "bytes" | "parts">): void;
  /** Drops the pages carrying any of `tags`. */
  invalidate(tags: readonly string[]): void;
  clear(): void;
  readonly size: number;
  readonly bytes: number;
}

const ENTRY_OVERHEAD = 512;

export function createRenderCache(maxBytes: number): RenderCache {
  const entries = new Map<string, CachedPage>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get(key, now = Date.now()) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.expiresAt <= now) {
        drop(key);
        return null;
      }
      // Most recently used goes last: Map iteration order is insertion order.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    set(key, page) {
      const size = page.body.length + key.length + page.contentType.length + ENTRY_OVERHEAD;
      if (size > maxBytes / 4) return; // one huge page must not empty the cache
      drop(key);
      entries.set(key, { ...page, bytes: size, parts: splitAtNonce(page.body) });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    invalidate(tags) {
      if (tags.length === 0) return;
      const stale = new Set(tags);
      for (const [key, entry] of entries) {
        if (entry.effects.tags.some((tag) => stale.has(tag))) drop(key);
      }
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/**
 * Whether the request carries anything that could make its page personal: a
 * session, a one-time message. Only the language cookie may be there (it is in the key).
 */
export function isAnonymous(cookieHeader: string | undefined | null): boolean {
  if (!cookieHeader) return true;
  return !/(?:^|;\s*)(?:__Secure-|__Host-)?inkwell\./.test(cookieHeader);
}
