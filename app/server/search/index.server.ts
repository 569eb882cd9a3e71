import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { postIdBatches } from "../db/id-batches.server.ts";
import type { PostSearchTable } from "../db/schema.server.ts";
import { indexedText } from "./indexed-text.server.ts";

// The search index holds every post that is not in the trash, drafts and
// scheduled posts included: searchPosts only returns posts that are published
// and not trashed *when it runs*, so a scheduled post whose status a job flips
// to published is found at once, without reindexing. What must call reindexPost:
// every save of a post's text, moving a post to the trash and restoring it.

export { indexedText, MAX_INDEXED_BODY } from "./indexed-text.server.ts";

/**
 * Brings the index in step with one post: its rows are replaced by its current
 * translations, or removed when the post is gone or in the trash. Returns how
 * many language versions are now indexed. Safe to call inside a transaction.
 */
export async function reindexPost(db: DB, postId: string): Promise<number> {
  return reindexPosts(db, [postId]);
}

/** Rows per insert: six values each, well under both databases' limit of bound values. */
const INSERT_BATCH = 100;

/**
 * Replaces the index rows of these posts by the given ones (an empty list takes a post out of
 * the index) with one delete and a few inserts, whatever the number of posts. Call it inside
 * a transaction.
 */
export async function replaceIndexRows(
  trx: DB,
  rows: ReadonlyMap<string, readonly PostSearchTable[]>,
): Promise<number> {
  const ids = [...rows.keys()];
  const all = [...rows.values()].flat();
  for (let i = 0; i < ids.length; i += INSERT_BATCH)
    await trx
      .deleteFrom("postSearch")
      .where("postId", "in", ids.slice(i, i + INSERT_BATCH))
      .execute();
  for (let i = 0; i < all.length; i += INSERT_BATCH)
    await trx
      .insertInto("postSearch")
      .values(all.slice(i, i + INSERT_BATCH))
      .execute();
  return all.length;
}

/**
 * reindexPost for several posts with one write transaction (an import's chunk): each commit
 * waits for the disk, so twenty posts written one transaction each cost twenty. The posts and
 * their translations are read with one query each per hundred posts, not per post. Returns the
 * number of language versions now indexed.
 */
export async function reindexPosts(db: DB, postIds: readonly string[]): Promise<number> {
  // Read and segment first, write in one short transaction: segmenting a long
  // body takes a while, and a SQLite write transaction holds up every writer.
  const ids = [...new Set(postIds)];
  if (ids.length === 0) return 0;
  const rows = new Map<string, PostSearchTable[]>(ids.map((id) => [id, []]));
  const now = nowIso();
  for (let i = 0; i < ids.length; i += INSERT_BATCH) {
    const slice = ids.slice(i, i + INSERT_BATCH);
    const live = await db
      .selectFrom("posts")
      .select("id")
      .where("id", "in", slice)
      .where("deletedAt", "is", null)
      .execute();
    if (live.length === 0) continue;
    const translations = await db
      .selectFrom("postTranslations")
      .select(["postId", "locale", "title", "summary", "bodyMarkdown", "bodyHtml"])
      .where(
        "postId",
        "in",
        live.map((p) => p.id),
      )
      .execute();
    for (const t of translations) rows.get(t.postId)?.push({ postId: t.postId, ...indexedText(t), updatedAt: now });
  }
  const write = (trx: DB) => replaceIndexRows(trx, rows);
  if (db.isTransaction) return write(db);
  return db.transaction().execute(write);
}

/** Rebuilds the index of every post (`npm run cli -- search:reindex`). */
export async function reindexAll(db: DB, opts: { batchSize?: number } = {}): Promise<{ posts: number; rows: number }> {
  let posts = 0;
  let rows = 0;
  for await (const batch of postIdBatches(db, opts.batchSize)) {
    for (const id of batch) {
      rows += await reindexPost(db, id);
      posts += 1;
    }
  }
  return { posts, rows };
}
