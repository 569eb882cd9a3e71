import { StorageError } from "./types.server.ts";

/** Longest key accepted; generated keys are far shorter ("ab/<hash>/640.webp"). */
export const MAX_KEY_LENGTH = 300;

// One segment: starts with a letter or digit, so "." and ".." can never be a segment
// and the drivers' own dot-folders (the local driver's ".tmp") can never be addressed.
const SEGMENT = "[a-z0-9][a-z0-9._-]{0,99}";
const KEY = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);

/**
 * Refuses any key that is not a plain server-generated path. This is the first
 * guard against path traversal; the local driver checks the resolved path again.
 */
export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new StorageError("invalid-url", "The storage key is not valid.");
}

export function isSafeKey(key: unknown): key is string {
  // The regex already excludes backslashes, NUL, "%", upper case and a leading "/";
  // ".." inside a segment ("a..b") is refused too, so no reading of it can climb.
  return typeof key === "string" && key.length <= MAX_KEY_LENGTH && !key.includes("..") && KEY.test(key);
}

/**
 * A list prefix: empty, or the start of a valid key. Any start of a valid key,
 * minus a trailing "/", is itself a valid key, which is what is checked.
 */
export function assertSafePrefix(prefix: string): void {
  if (prefix === "") return;
  assertSafeKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
}
