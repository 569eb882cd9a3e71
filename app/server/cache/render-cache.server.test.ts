import { describe, expect, it } from "vitest";
import {
  changesAt,
  createRenderCache,
  isAnonymous,
  NONCE_SENTINEL,
  newEffects,
  piecesWithNonce,
  splitAtNonce,
  strongEtag,
  strongEtagWithoutNonce,
  withoutNonce,
} from "./render-cache.server.ts";

const page = (body: string, expiresAt = Number.POSITIVE_INFINITY, tags: string[] = []) => ({
  status: 200,
  body: Buffer.from(body),
  contentType: "text/html",
  etag: strongEtag(Buffer.from(body)),
  cacheControl: "public",
  effects: { ...newEffects(), tags },
  version: 1,
  expiresAt,
});

describe("createRenderCache", () => {
  it("serves a page until it expires", () => {
    const cache = createRenderCache(1024 * 1024);
    cache.set("b", page("<p>b</p>", 1000));
    expect(cache.get("b", 999)?.body.toString()).toBe("<p>b</p>");
    expect(cache.get("b", 1000)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it("drops the pages carrying a changed tag and keeps the others", () => {
    const cache = createRenderCache(1024 * 1024);
    cache.set("/posts/a", page("a", Infinity, ["post:a"]));
    cache.set("/zh/posts/a?page=2", page("a2", Infinity, ["post:a"]));
    cache.set("/posts/b", page("b", Infinity, ["post:b"]));
    cache.set("/", page("home"));
    cache.invalidate(["post:a", "post:zzz"]);
    expect(cache.get("/posts/a")).toBeNull();
    expect(cache.get("/zh/posts/a?page=2")).toBeNull();
    expect(cache.get("/posts/b")?.body.toString()).toBe("b");
    expect(cache.get("/")?.body.toString()).toBe("home");
    expect(cache.size).toBe(2);
    const bytes = cache.bytes;
    cache.invalidate([]);
    expect(cache.bytes).toBe(bytes);
  });

  it("stays within its byte bound by dropping the least recently used page", () => {
    const cache = createRenderCache(8 * 1024);
    const body = "x".repeat(1500);
    cache.set("one", page(body));
    cache.set("two", page(body));
    cache.set("three", page(body));
    cache.get("one"); // now the most recently used
    cache.set("four", page(body));
    cache.set("five", page(body));
    expect(cache.bytes).toBeLessThanOrEqual(8 * 1024);
    expect(cache.get("one")).not.toBeNull();
    expect(cache.get("two")).toBeNull();
    expect(cache.get("five")).not.toBeNull();
  });

  it("never keeps a page bigger than a quarter of the bound", () => {
    const cache = createRenderCache(4096);
    cache.set("big", page("y".repeat(2000)));
    expect(cache.size).toBe(0);
  });

  it("empties on clear", () => {
    const cache = createRenderCache(4096);
    cache.set("a", page("a"));
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});

describe("nonces in stored pages", () => {
  it("swaps the render's nonce for a placeholder and back to each response's own", () => {
    const rendered = Buffer.from('<script nonce="abc123">1</script><script nonce="abc123">2</script>');
    const stored = withoutNonce(rendered, "abc123");
    expect(stored.toString()).not.toContain("abc123");
    expect(stored.toString().split(NONCE_SENTINEL)).toHaveLength(3);
    // A hit writes the stored parts around its own nonce, the parts uncopied.
    const parts = splitAtNonce(stored);
    const pieces = piecesWithNonce(parts, "zzz999");
    expect(Buffer.concat(pieces).toString()).toBe('<script nonce="zzz999">1</script><script nonce="zzz999">2</script>');
    expect(pieces[0]).toBe(parts[0]);
    expect(piecesWithNonce([stored.subarray(0, 5)], "n")).toHaveLength(1);
    // The ETag is taken over the stored form: the same for every response.
    expect(strongEtag(stored)).toBe(strongEtag(withoutNonce(Buffer.from(rendered), "abc123")));
    // Without a stored copy (render cache off) the same ETag, and another for other content.
    expect(strongEtagWithoutNonce(rendered, "abc123")).toBe(strongEtag(stored));
    const other = Buffer.from('<script nonce="zzz999">1</script><script nonce="zzz999">3</script>');
    expect(strongEtagWithoutNonce(other, "zzz999")).not.toBe(strongEtag(stored));
  });

  it("matches the nonce in text of any script, and leaves a body without it alone", () => {
    const nonce = "n0nce";
    const text = `<p>中文 ${nonce}</p>${nonce}<i>é</i>${nonce}${nonce}`;
    const old = Buffer.from(text.replaceAll(nonce, NONCE_SENTINEL), "utf8");
    expect(withoutNonce(Buffer.from(text), nonce).equals(old)).toBe(true);
    expect(strongEtagWithoutNonce(Buffer.from(text), nonce)).toBe(strongEtag(old));
    const plain = Buffer.from("<p>no nonce here</p>");
    expect(withoutNonce(plain, nonce)).toBe(plain);
    expect(withoutNonce(plain, "")).toBe(plain);
    expect(strongEtagWithoutNonce(plain, "")).toBe(strongEtag(plain));
  });
});

describe("which requests are shared", () => {
  it("notes the earliest future time a page changes by itself", () => {
    const effects = newEffects();
    const now = Date.parse("2026-01-01T00:00:00Z");
    changesAt(effects, "2026-01-03T00:00:00Z", now);
    changesAt(effects, "2026-01-02T00:00:00Z", now);
    changesAt(effects, "2025-12-31T00:00:00Z", now); // already past: no change ahead
    changesAt(effects, null, now);
    changesAt(effects, "not a date", now);
    expect(effects.expiresAt).toBe(Date.parse("2026-01-02T00:00:00Z"));
  });

  it("shares only requests without a session or a message", () => {
    expect(isAnonymous(undefined)).toBe(true);
    expect(isAnonymous("locale=zh; theme=dark")).toBe(true);
    expect(isAnonymous("locale=zh; inkwell.session_token=abc")).toBe(false);
    expect(isAnonymous("__Secure-inkwell.session_token=abc")).toBe(false);
    expect(isAnonymous("inkwell.flash=x.y")).toBe(false);
  });
});
