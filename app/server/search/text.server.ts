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
 * The text of HTML produced by our Markdown pipeline (app/server/markdown.server.ts):
 * tags removed (block tags leave a space), entities decoded, whitespace collapsed.
 * The result is plain text: it is escaped again wherever it is shown.
 */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(BLOCK_TAG, " ").replace(ANY_TAG, "")).replace(/\s+/g, " ").trim();
}

/**
 * A post body as plain text: its rendered HTML stripped of tags; the Markdown
 * source as it is when the post was stored without rendering (bodyHtml empty).
 */
export function bodyText(t: { bodyHtml: string; bodyMarkdown: string }): string {
  return t.bodyHtml.trim() ? htmlToText(t.bodyHtml) : t.bodyMarkdown.replace(/\s+/g, " ").trim();
}
