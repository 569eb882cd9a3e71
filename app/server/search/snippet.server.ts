import { BLOCK_SEPARATOR } from "./text.server.ts";
import { isHanToken } from "./tokenize.server.ts";

// Result snippets: a window of plain text around the query's tokens, every
// character escaped, then the matches wrapped in <mark>. The output contains no
// markup but <mark> and </mark>; user input only ever reaches it escaped.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Characters of plain text in a snippet (before the ellipses). */
export const SNIPPET_LENGTH = 160;
/** How much text comes before the first match in a snippet. */
const LEAD = 40;
const MAX_HITS = 200;

/** A character of a non-Chinese word: a match must not start or end inside one. */
const WORD_CHAR = String.raw`[[\p{L}\p{N}\p{M}]--\p{Script=Han}]`;

/** Escapes the syntax characters (tokens are letters and digits only, but keep it safe). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * A regular expression finding the tokens in original text, case-insensitively:
 * Chinese tokens anywhere, other tokens as whole words. Longest tokens first, so
 * 中文搜索 wins over 中文.
 */
export function tokenPattern(tokens: readonly string[]): RegExp | null {
  const parts = [...new Set(tokens)]
    .filter((t) => t.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((t) => (isHanToken(t) ? escapeRegExp(t) : `(?<!${WORD_CHAR})${escapeRegExp(t)}(?!${WORD_CHAR})`));
  return parts.length ? new RegExp(parts.join("|"), "giv") : null;
}

interface Hit {
  start: number;
  end: number;
  token: string;
}

function findHits(text: string, pattern: RegExp | null): Hit[] {
  if (!pattern) return [];
  pattern.lastIndex = 0;
  return [...text.matchAll(pattern)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    token: m[0].toLowerCase(),
  }));
}

/** Cuts at a space near `index` (within 15 characters) so a word is not split, when there is one. */
function softStart(text: string, index: number): number {
  if (index <= 0) return 0;
  const space = text.indexOf(" ", index);
  return space !== -1 && space - index <= 15 ? space + 1 : index;
}

function softEnd(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const space = text.lastIndexOf(" ", index);
  return space !== -1 && index - space <= 15 ? space : index;
}

export interface Snippet {
  html: string;
  /** Distinct tokens shown highlighted. */
  matched: number;
}

/**
 * The snippet of `text` for `tokens`: the window of about SNIPPET_LENGTH
 * characters holding the most distinct tokens (the earliest on ties), with
 * ellipses where text was cut and each match in <mark>.
 */
export function makeSnippet(text: string, tokens: readonly string[], length = SNIPPET_LENGTH): Snippet {
  // The first matches are enough to place the window, and keep this linear in long bodies.
  const hits = findHits(text, tokenPattern(tokens)).slice(0, MAX_HITS);
  let start = 0;
  let matched = 0;
  for (const hit of hits) {
    // LEAD characters before the match, unless the window would then run past the end.
    const from = Math.max(0, Math.min(hit.start - LEAD, text.length - length));
    const distinct = new Set(hits.filter((h) => h.start >= from && h.end <= from + length).map((h) => h.token)).size;
    if (distinct > matched) {
      matched = distinct;
      start = from;
    }
  }
  if (start > 0) start = softStart(text, start);
  let end = softEnd(text, Math.min(text.length, start + length));
  // A cut next to a block separator drops the separator: the ellipsis says it already.
  const mark = BLOCK_SEPARATOR.trim();
  if (start > 0 && text.startsWith(mark, start)) start = Math.min(end, start + mark.length + 1);
  if (end < text.length && text.slice(0, end).trimEnd().endsWith(mark)) {
    end = Math.max(start, text.slice(0, end).trimEnd().length - mark.length - 1);
  }
  let html = start > 0 ? "…" : "";
  let at = start;
  for (const hit of hits) {
    if (hit.start < start || hit.end > end) continue;
    html += `${escapeHtml(text.slice(at, hit.start))}<mark>${escapeHtml(text.slice(hit.start, hit.end))}</mark>`;
    at = hit.end;
  }
  html += escapeHtml(text.slice(at, end));
  if (end < text.length) html += "…";
  return { html, matched };
}

/**
 * The snippet for a result: from the summary or the body, whichever shows more of
 * the query (the summary on ties); the start of the summary, else of the body,
 * when neither has a match (the hit was in the title). In the body, prose (`prose`:
 * the body without its code blocks) is preferred: code is shown only when it holds
 * more of the query than the prose does.
 */
export function resultSnippet(
  parts: { summary: string; body: string; prose?: string },
  tokens: readonly string[],
): string {
  const summary = makeSnippet(parts.summary, tokens);
  const prose = parts.prose === undefined ? null : makeSnippet(parts.prose, tokens);
  const whole = makeSnippet(parts.body, tokens);
  const body = prose && (prose.matched >= whole.matched || whole.matched === 0) && parts.prose ? prose : whole;
  if (summary.matched === 0 && body.matched === 0) return parts.summary.trim() ? summary.html : body.html;
  return body.matched > summary.matched ? body.html : summary.html;
}
