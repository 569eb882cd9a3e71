// An inbox body checked as bytes before anything recursive sees it. JSON-LD expansion and
// compaction recurse once per nesting level: a 48 KB activity nested 8,000 levels deep
// overflowed the stack before its signature was looked at. The depth is counted here in
// one flat pass (no recursion, so the check itself cannot overflow), then the body is
// parsed only when it is shallow enough.

/**
 * The deepest nesting an inbox activity may have. Real ones stay far below it: Mastodon's
 * deepest (an Update of an actor with attachments, or a Create with tags, inside a context
 * array) nest fewer than ten levels.
 */
export const MAX_ACTIVITY_DEPTH = 32;

export type RawJson =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; reason: "too-deep" | "not-json" | "not-an-object" };

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether `bytes` (UTF-8 JSON, valid or not) opens more than `max` objects and arrays inside
 * each other. Only brackets outside strings count; every byte of a multi-byte UTF-8
 * character is ≥ 0x80, so it is never taken for a bracket or a quote.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The body as a JSON object, refused when it nests deeper than `maxDepth`, is not JSON, or not an object. */
export function parseActivityBody(bytes: Uint8Array, maxDepth = MAX_ACTIVITY_DEPTH): RawJson {
  if (nestsDeeperThan(bytes, maxDepth)) return { ok: false, reason: "too-deep" };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { ok: false, reason: "not-json" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, reason: "not-an-object" };
  return { ok: true, value: value as Record<string, unknown> };
}
