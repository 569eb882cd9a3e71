/** The longest name a person may show on the site (bylines, comments). */
export const DISPLAY_NAME_MAX = 50;

/**
 * Characters a name may not hold: control characters, line and paragraph
 * separators, the byte-order mark, and the bidirectional marks, embeddings,
 * overrides and isolates that can make text read backwards ("‮moc.evil"). Joiners
 * (U+200C, U+200D) stay: emoji sequences and several scripts need them.
 */
const FORBIDDEN = /[\p{Cc}\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/u;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, "gu");

export type NameProblem = "required" | "tooLong" | "invalid";

/** One rule for every path that sets a name: trimmed, 1 to 50 characters, nothing that hides or reorders text. */
export function checkDisplayName(raw: unknown): { ok: true; name: string } | { ok: false; problem: NameProblem } {
  if (typeof raw !== "string") return { ok: false, problem: "required" };
  const name = raw.trim();
  if (name.length === 0) return { ok: false, problem: "required" };
  if ([...name].length > DISPLAY_NAME_MAX) return { ok: false, problem: "tooLong" };
  if (FORBIDDEN.test(name)) return { ok: false, problem: "invalid" };
  return { ok: true, name };
}

/**
 * A name from somewhere we cannot send back a form error (an OAuth provider's
 * profile): the forbidden characters dropped, spaces collapsed, cut to length.
 */
export function cleanDisplayName(raw: string): string {
  const cleaned = raw.replace(FORBIDDEN_ALL, "").replace(/\s+/g, " ").trim();
  return [...cleaned].slice(0, DISPLAY_NAME_MAX).join("").trim();
}
