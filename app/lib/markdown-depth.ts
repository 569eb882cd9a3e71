/**
 * How deeply Markdown nests block containers (quotes and lists), counted on the
 * text before any parser sees it: a parser recurses once per level, so 5,000 `>`
 * exhaust the stack and block the event loop. Real writing rarely goes past five.
 */
export const MAX_MARKDOWN_NESTING = 16;

/** Markdown nested deeper than MAX_MARKDOWN_NESTING: refused before any parser sees it. */
export class MarkdownTooDeep extends Error {
  override name = "MarkdownTooDeep";
  constructor() {
    super(`Markdown nested deeper than ${MAX_MARKDOWN_NESTING} levels`);
  }
}

const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/;

/**
 * The nesting one line opens: its indentation (two columns a level: nested list items
 * are indented), then each `>` and list marker in a row at its start.
 */
function lineDepth(line: string): number {
  let at = 0;
  let indent = 0;
  while (at < line.length && (line[at] === " " || line[at] === "\t")) {
    indent += line[at] === "\t" ? 4 : 1;
    at += 1;
  }
  let depth = Math.floor(indent / 2);
  for (;;) {
    if (line[at] === ">") {
      at += 1;
    } else {
      const marker = LIST_MARKER.exec(line.slice(at, at + 11));
      if (!marker) return depth;
      at += marker[0].length;
    }
    depth += 1;
    while (at < line.length && (line[at] === " " || line[at] === "\t")) at += 1;
  }
}

/** The deepest nesting of any line, stopping early once it is past `limit`. */
export function markdownDepth(markdown: string, limit = MAX_MARKDOWN_NESTING): number {
  let deepest = 0;
  let from = 0;
  while (from <= markdown.length) {
    const end = markdown.indexOf("\n", from);
    const line = markdown.slice(from, end === -1 ? markdown.length : end);
    deepest = Math.max(deepest, lineDepth(line));
    if (deepest > limit) return deepest;
    if (end === -1) break;
    from = end + 1;
  }
  return deepest;
}

/** Whether Markdown stays within the nesting the site renders. */
export function withinNesting(markdown: string): boolean {
  return markdownDepth(markdown) <= MAX_MARKDOWN_NESTING;
}
