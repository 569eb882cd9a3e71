import { lazyModule } from "../platform/lazy-module.server.ts";

/**
 * The Markdown pipeline (markdown.server.ts: unified, remark, rehype), imported the first time
 * something renders Markdown: a site page, a comment rendered in-process, an import. Stored posts
 * and comments are HTML already, so a blog that only serves readers never loads it.
 */
export const markdownModule = lazyModule(() => import("./markdown.server.ts"));
