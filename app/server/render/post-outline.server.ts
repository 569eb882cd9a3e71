// What a rendered post is besides its HTML, and the text measures that make it: the table
// of contents and its heading ids, the reading time. Shared by the renderer's front
// (post-render.server.ts) and the Markdown pipeline it loads on first use
// (post-pipeline.server.ts), which would otherwise import each other.

/** One heading of a post's table of contents. */
export interface TocEntry {
  depth: 2 | 3;
  id: string;
  text: string;
}

export interface RenderedPost {
  html: string;
  toc: TocEntry[];
  readingMinutes: number;
}

/** English-like words per minute and Chinese characters per minute. */
const WORDS_PER_MINUTE = 230;
const CJK_CHARS_PER_MINUTE = 400;

/**
 * Reading time in whole minutes (at least 1): Chinese characters and other
 * words are counted separately, each at its own reading speed.
 */
export function readingMinutes(text: string): number {
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const words =
    text.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, " ").match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE + cjk / CJK_CHARS_PER_MINUTE));
}

/** Heading ids start with this, so a heading can never take over an id of the page around it. */
const HEADING_ID_PREFIX = "h-";
const MAX_SLUG_LENGTH = 80;

/**
 * A heading's text as an id: lower case, letters (any script, so Chinese stays
 * Chinese) and digits kept, punctuation dropped, spaces to hyphens.
 */
export function headingSlug(text: string): string {
  const slug = text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s+/g, "-")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
  return `${HEADING_ID_PREFIX}${slug || "section"}`;
}
