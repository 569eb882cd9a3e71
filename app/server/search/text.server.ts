import { withoutControls } from "../render/post-markup.server.ts";

// Plain text of a post body, for the search index and for result snippets (the
// same function for both, so what is highlighted is what was indexed).

/** Tags that end a word: block elements and line breaks. Inline ones (a, em, code, span…) do not. */
const BLOCK_TAG =
  /<\/?(?:address|article|aside|blockquote|br|caption|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|img|li|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
/** A tag, with `>` allowed inside quoted attribute values. */
const ANY_TAG = /<(?:[^>"']|"[^"]*"|'[^']*')*>/g;
const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function codePoint(n: number): string {
  return n > 0 && n <= 0x10ffff && (n < 0xd800 || n > 0xdfff) ? String.fromCodePoint(n) : "\uFFFD";
}

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (_, hex?: string, dec?: string, name?: string) => {
    if (hex) return codePoint(Number.parseInt(hex, 16));
    if (dec) return codePoint(Number.parseInt(dec, 10));
    return NAMED[name ?? ""] ?? "";
  });
}

/**
 * The text of HTML produced by our Markdown pipeline (app/server/render/markdown.server.ts):
 * tags removed (block tags leave a space), entities decoded, whitespace collapsed.
 * The result is plain text: it is escaped again wherever it is shown.
 */
export function htmlToText(html: string): string {
  return decodeEntities(withoutControls(html).replace(BLOCK_TAG, " ").replace(ANY_TAG, "")).replace(/\s+/g, " ").trim();
}

/**
 * A post body as plain text: its rendered HTML stripped of tags; the Markdown
 * source as it is when the post was stored without rendering (bodyHtml empty).
 */
export function bodyText(t: { bodyHtml: string; bodyMarkdown: string }): string {
  return t.bodyHtml.trim() ? htmlToText(t.bodyHtml) : t.bodyMarkdown.replace(/\s+/g, " ").trim();
}

/** Tags that start or end a block of text a snippet keeps apart from the next one. */
const SEPARATING_TAG = /<\/?(?:blockquote|dd|dt|figcaption|h[1-6]|li|p|tr|caption)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
/** A code block, whole (its own text never holds a tag: Shiki escapes it). */
const CODE_BLOCK = /<pre\b(?:[^>"']|"[^"]*"|'[^']*')*>[\s\S]*?<\/pre>/gi;

/** What a snippet shows between two blocks (paragraphs, list items, code…). */
export const BLOCK_SEPARATOR = " · ";

export interface SnippetTexts {
  /** Every block of the body, code included, joined by BLOCK_SEPARATOR. */
  body: string;
  /** The body without its code blocks: what a snippet shows first. */
  prose: string;
}

function blockTexts(html: string): string[] {
  return html
    .split(SEPARATING_TAG)
    .map(htmlToText)
    .filter((text) => text !== "");
}

/**
 * A post body as the text of its blocks, for result snippets: a paragraph, a list item,
 * a heading or a code block never runs into the next one, and the prose can be searched
 * apart from the code. The words are bodyText's (what was indexed), only divided.
 */
export function snippetTexts(t: { bodyHtml: string; bodyMarkdown: string }): SnippetTexts {
  if (!t.bodyHtml.trim()) {
    const text = t.bodyMarkdown
      .split(/\n\s*\n/)
      .map((block) => block.replace(/\s+/g, " ").trim())
      .filter((block) => block !== "")
      .join(BLOCK_SEPARATOR);
    return { body: text, prose: text };
  }
  const all: string[] = [];
  const prose: string[] = [];
  let at = 0;
  for (const match of t.bodyHtml.matchAll(CODE_BLOCK)) {
    const before = blockTexts(t.bodyHtml.slice(at, match.index));
    all.push(...before);
    prose.push(...before);
    all.push(htmlToText(match[0]));
    at = match.index + match[0].length;
  }
  const rest = blockTexts(t.bodyHtml.slice(at));
  all.push(...rest);
  prose.push(...rest);
  return { body: all.filter((b) => b !== "").join(BLOCK_SEPARATOR), prose: prose.join(BLOCK_SEPARATOR) };
}
