import type { ImportedPost, ImportReportLine } from "./core.server.ts";
import { type ImageResolver, localImageResolver } from "./images.server.ts";
import type { SourceRead } from "./markdown-folder.server.ts";
import type { WordPressReadOptions } from "./wordpress/items.server.ts";
import { indexItem, newIndex, WxrReader } from "./wordpress/reader.server.ts";
import { checkWxrFile, parseWxrFile, type WxrDocument } from "./wordpress/wxr.server.ts";

// The WordPress importer (WXR 1.1/1.2, Tools → Export; docs/decisions/022-wordpress-import.md):
// posts and pages (pages as pages, decision 035), their comments with replies and
// approval state, revisions, featured images and Polylang language pairs become imported posts
// for the shared import job. Its parts, in wordpress/: the XML reader (wxr), the content
// converter (content), one item as a post's version (items), and the two passes that pair
// versions into posts (reader).

export const WORDPRESS_SOURCE = "wordpress";

/** Reads a parsed export into imported posts (Polylang pairs as one post); it empties the items' texts as it goes. Nothing is written. */
export function readWxr(doc: WxrDocument, opts: WordPressReadOptions = {}): SourceRead {
  const index = newIndex();
  for (const it of doc.items) indexItem(index, it, opts);
  const reader = new WxrReader(index, doc, opts);
  const posts: ImportedPost[] = [];
  for (const it of doc.items) posts.push(...reader.add(it));
  posts.push(...reader.finish());
  return { posts, problems: reader.problems, files: 1 };
}

/**
 * Reads an export file in two streamed passes, handing its posts on in batches as they are read
 * (docs/decisions/022-wordpress-import.md, "At scale"): the first pass keeps the attachments,
 * revisions and translation groups, the second turns each item into a post as it closes. Memory
 * holds one batch and what a post waits for (its Polylang partner), not the export.
 */
export async function streamWxr(
  file: string,
  opts: WordPressReadOptions,
  onPosts: (posts: ImportedPost[]) => Promise<void>,
  batch = 100,
): Promise<{ problems: ImportReportLine[]; attachments: number }> {
  await checkWxrFile(file);
  const index = newIndex();
  const doc = await parseWxrFile(file, { onItem: (it) => indexItem(index, it, opts) });
  const reader = new WxrReader(index, doc, opts);
  const ready: ImportedPost[] = [];
  await parseWxrFile(file, {
    onItem: (it) => {
      ready.push(...reader.add(it));
    },
    afterChunk: async () => {
      if (ready.length >= batch) await onPosts(ready.splice(0));
    },
  });
  ready.push(...reader.finish());
  if (ready.length > 0) await onPosts(ready.splice(0));
  return { problems: reader.problems, attachments: index.attachmentItems };
}

const UPLOADS = /\/wp-content\/uploads\/(.+)$/;

/**
 * Finds `…/wp-content/uploads/…` images (on any host: the old site, a CDN) under the given folder,
 * which may be the uploads folder itself, `wp-content` or the WordPress root. Not found, they are
 * reported and stay links; other remote images stay links.
 */
export function wordpressImageResolver(root: string, maxBytes: number): ImageResolver {
  const local = localImageResolver(root, maxBytes);
  return {
    resolve(ref, assetDirs) {
      let pathname = ref.split(/[?#]/)[0] ?? "";
      try {
        if (/^(https?:)?\/\//i.test(ref)) pathname = new URL(ref, "http://old.invalid").pathname;
      } catch {
        // Kept as written.
      }
      const m = UPLOADS.exec(pathname);
      if (m?.[1]) return local.resolve(m[1], ["", "uploads", "wp-content/uploads"]);
      return local.resolve(ref, assetDirs);
    },
  };
}
