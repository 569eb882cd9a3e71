import { withinNesting } from "../../lib/markdown-depth.ts";
import { PAGE_LIMITS } from "../../lib/schemas/page.ts";
import { POST_LIMITS } from "../../lib/schemas/post.ts";
import { type ImportedPost, type ImportReportLine, itemHash } from "./core.server.ts";
import { imageReferences } from "./images.server.ts";

// What a dry run needs to know of a read post that takes no database and no files: its content
// hash, whether a body is too long or nested too deeply, and the images it refers to. Worked out
// where the post was read: for an upload, on the check's worker thread (upload-check.server.ts),
// so that the thread serving requests only looks things up (job/dry-run.server.ts).

export interface CheckedPost {
  sourceId: string;
  /** "page": written as a page (decision 035). */
  kind?: "page";
  label: string;
  notes: ImportReportLine[];
  hash: string;
  /** Set when a body is too long or too deep: the post would fail. */
  failure: ImportReportLine | null;
  /** Its bodies' image and link-definition targets, and its cover: each looked up by the dry run. */
  refs: string[];
  assetDirs: string[];
  comments: number;
}

export async function checkPost(post: ImportedPost): Promise<CheckedPost> {
  const base = {
    sourceId: post.sourceId,
    ...(post.kind === "page" ? { kind: "page" as const } : {}),
    label: post.label,
    notes: post.notes,
    hash: itemHash(post),
    assetDirs: post.assetDirs,
    comments: post.comments?.length ?? 0,
  };
  // A page's body is held to the page editor's limit, a post's to the post editor's.
  const bodyMax = post.kind === "page" ? PAGE_LIMITS.bodyMax : POST_LIMITS.bodyMax;
  const tooLong = post.translations.find((t) => t.bodyMarkdown.length > bodyMax);
  const tooDeep = post.translations.find((t) => !withinNesting(t.bodyMarkdown));
  if (tooLong || tooDeep) {
    const failure: ImportReportLine = {
      item: (tooLong ?? tooDeep)?.origin ?? post.label,
      outcome: "failed",
      reason: tooLong ? (post.kind === "page" ? "pageBodyTooLong" : "bodyTooLong") : "bodyTooDeep",
    };
    return { ...base, failure, refs: [] };
  }
  const refs: string[] = [];
  for (const t of post.translations) for (const r of await imageReferences(t.bodyMarkdown)) refs.push(r.url);
  if (post.cover) refs.push(post.cover);
  return { ...base, failure: null, refs: [...new Set(refs)] };
}
