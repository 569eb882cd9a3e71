import type { Locale } from "../../lib/i18n/locale.ts";
import { MarkdownTooDeep, withinNesting } from "../../lib/markdown-depth.ts";
import { lazyModule } from "../platform/lazy-module.server.ts";
import type { RenderedPost } from "./post-outline.server.ts";
import type { RenderOptions } from "./post-pipeline.server.ts";

/** The longest post body (in characters) the editor may save or preview. */
export const POST_MARKDOWN_MAX_LENGTH = 200_000;

/**
 * The Markdown pipeline of a post (post-pipeline.server.ts), imported with the first post
 * rendered: pages show the stored HTML, so reading never loads it.
 */
const pipelineModule = lazyModule(() => import("./post-pipeline.server.ts"));

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
