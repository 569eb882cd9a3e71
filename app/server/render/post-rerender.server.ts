import { bumpContentVersion } from "../cache/content-version.server.ts";
import type { DB } from "../db/db.server.ts";
import { postIdBatches } from "../db/id-batches.server.ts";
import { mediaImages } from "../media/media.server.ts";
import { reindexPost } from "../search/index.server.ts";
import { renderPost } from "./post-render.server.ts";

/**
 * Renders every stored post body again from its Markdown (HTML, table of contents,
 * reading time) and reindexes the post: what `posts:rerender` runs after the rendering
 * pipeline changed the markup it stores (docs/decisions/014-article-typography.md).
 * A post's edit time is left alone: its content did not change. A body the pipeline now
 * refuses (nested too deep) keeps its stored HTML and is counted as skipped. Ends by
 * bumping the shared content version, so running servers drop the pages they kept.
 */
export async function rerenderAllPosts(
  db: DB,
  opts: { batchSize?: number } = {},
): Promise<{ posts: number; versions: number; skipped: number }> {
  let posts = 0;
  let versions = 0;
  let skipped = 0;
  for await (const batch of postIdBatches(db, opts.batchSize)) {
    for (const id of batch) {
      const translations = await db
        .selectFrom("postTranslations")
        .select(["locale", "bodyMarkdown"])
        .where("postId", "=", id)
        .execute();
      for (const t of translations) {
        let out: Awaited<ReturnType<typeof renderPost>>;
        try {
          out = await renderPost(t.bodyMarkdown, t.locale, { media: (ids) => mediaImages(db, ids) });
        } catch {
          skipped += 1;
          continue;
        }
        await db
          .updateTable("postTranslations")
          .set({ bodyHtml: out.html, tocJson: JSON.stringify(out.toc), readingMinutes: out.readingMinutes })
          .where("postId", "=", id)
          .where("locale", "=", t.locale)
          .execute();
        versions += 1;
      }
      await reindexPost(db, id);
      posts += 1;
    }
  }
  await bumpContentVersion(db, "all");
  return { posts, versions, skipped };
}
