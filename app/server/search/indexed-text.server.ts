import type { PostSearchTable } from "../db/schema.server.ts";
import { bodyText } from "./text.server.ts";
import { segmentForIndex } from "./tokenize.server.ts";

// The search index's text of one language version: pure (no database), so an import's render
// worker can segment a post beside its HTML (import/render.server.ts).

/** Body text beyond this many characters is not indexed (keeps a tsvector well under its 1 MB limit). */
export const MAX_INDEXED_BODY = 200_000;

/** One language version of a post, as the index reads it. */
export interface IndexedTranslation {
  locale: PostSearchTable["locale"];
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
}

export type IndexedText = Pick<PostSearchTable, "locale" | "title" | "summary" | "body">;

/**
 * The segmented text of one language version (the slow part of indexing: pure, so a caller can
 * do it before it takes a write transaction, as an import's chunk does).
 */
export function indexedText(t: IndexedTranslation): IndexedText {
  return {
    locale: t.locale,
    title: segmentForIndex(t.title),
    summary: segmentForIndex(t.summary),
    body: segmentForIndex(bodyText(t).slice(0, MAX_INDEXED_BODY)),
  };
}
