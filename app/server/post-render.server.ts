import type { Locale } from "../lib/i18n/locale.ts";
import { MarkdownTooDeep, withinNesting } from "../lib/markdown-depth.ts";
import type { MediaImage } from "../lib/media.ts";
import { lazyModule } from "./lazy-module.server.ts";

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

/** The longest post body (in characters) the editor may save or preview. */
export const POST_MARKDOWN_MAX_LENGTH = 200_000;

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
export const HEADING_ID_PREFIX = "h-";
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

/**
 * The Markdown pipeline of a post (post-pipeline.server.ts), imported with the first post
 * rendered: pages show the stored HTML, so reading never loads it.
 */
const pipelineModule = lazyModule(() => import("./post-pipeline.server.ts"));

export interface RenderOptions {
  /** Looks up uploaded images by id, so their <img> gets srcset, width and height. */
  media?: (ids: string[]) => Promise<Map<string, MediaImage>>;
}

/**
 * A post body, rendered once when it is saved: sanitized HTML with heading ids
 * and highlighted code, the table of contents and the reading time. Pages show
 * the stored result and never render Markdown per request. Async because Shiki
 * is loaded on the first post that has a code block. `locale` is the language of
 * this version of the post (only the footnotes' screen-reader labels depend on it).
 */
export async function renderPost(
  markdown: string,
  locale: Locale = "en",
  options: RenderOptions = {},
): Promise<RenderedPost> {
  // Forms refuse deeper nesting; never hand it to the parser, whose recursion it overflows.
  if (!withinNesting(markdown)) throw new MarkdownTooDeep();
  return (await pipelineModule()).renderPostBody(markdown, locale, options);
}
