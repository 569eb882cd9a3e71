import { MarkdownTooDeep } from "../../lib/markdown-depth.ts";
import type { MediaImage } from "../../lib/media.ts";
import type { Locale } from "../db/schema.server.ts";
import type { TocEntry } from "../render/post-outline.server.ts";
import { renderPost } from "../render/post-render.server.ts";

// The heaviest part of importing a post: its bodies rendered (the editor's path: Markdown,
// sanitising, highlighting). Pure: no database and no files, so an import runs it on a worker
// thread (render-worker.server.ts) while its own thread writes the previous chunk, renders the
// comments and segments the search text (job/prepare.server.ts). Measured at 2,000 posts,
// the bodies are about as much CPU as all the rest of a chunk: the two threads stay even.

export interface ImportRenderRequest {
  /** The post's language versions, image references already pointing at stored media. */
  bodies: Array<{ locale: Locale; markdown: string }>;
  /** The uploaded images the bodies may show, by media id (looked up by the caller, which has the database). */
  media: Map<string, MediaImage>;
}

export interface RenderedImportBody {
  html: string;
  toc: TocEntry[];
  readingMinutes: number;
}

/** One per body, in order; null where the body is nested too deeply to render. */
export type ImportRenderResult = Array<RenderedImportBody | null>;

/** Renders one imported post's bodies. Errors other than too deep nesting are thrown (the chunk is retried). */
export async function renderImported(request: ImportRenderRequest): Promise<ImportRenderResult> {
  const media = async (ids: string[]) => {
    const found = new Map<string, MediaImage>();
    for (const id of ids) {
      const image = request.media.get(id);
      if (image) found.set(id, image);
    }
    return found;
  };
  const out: ImportRenderResult = [];
  for (const body of request.bodies) {
    try {
      const rendered = await renderPost(body.markdown, body.locale, { media });
      out.push({ html: rendered.html, toc: rendered.toc, readingMinutes: rendered.readingMinutes });
    } catch (error) {
      if (!(error instanceof MarkdownTooDeep)) throw error;
      out.push(null);
    }
  }
  return out;
}
