import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { PostSearchTable } from "../db/schema.server.ts";
import { bodyText } from "./text.server.ts";
import { segmentForIndex } from "./tokenize.server.ts";

// The search index holds every post that is not in the trash, drafts and
// scheduled posts included: searchPosts only returns posts that are published
// and not trashed *when it runs*, so a scheduled post whose status a job flips
// to published is found at once, without reindexing. What must call reindexPost:
// every save of a post's text, moving a post to the trash and restoring it.

/** Body text beyond this many characters is not indexed (keeps a tsvector well under its 1 MB limit). */
export const MAX_INDEXED_BODY = 200_000;

/**
 * Brings the index in step with one post: its rows are replaced by its current
 * translations, or removed when the post is gone or in the trash. Returns how
 * many language versions are now indexed. Safe to call inside a transaction.
 */
export async function reindexPost(db: DB, postId: string): Promise<number> {
  return reindexPosts(db, [postId]);
}

/** The index rows of one post as it is now: none when it is gone or in the trash. */
async function indexRowsOf(db: DB, postId: string): Promise<PostSearchTable[]> {
  const post = await db.selectFrom("posts").select(["id", "deletedAt"]).where("id", "=", postId).executeTakeFirst();
  const translations =
    post && post.deletedAt === null
      ? await db
          .selectFrom("postTranslations")
          .select(["locale", "title", "summary", "bodyMarkdown", "bodyHtml"])
          .where("postId", "=", postId)
          .execute()
      : [];
  const now = nowIso();
  return translations.map((t) => ({
    postId,
    locale: t.locale,
    title: segmentForIndex(t.title),
    summary: segmentForIndex(t.summary),
    body: segmentForIndex(bodyText(t).slice(0, MAX_INDEXED_BODY)),
    updatedAt: now,
  }));
}

/**
 * reindexPost for several posts with one write transaction (an import's chunk): each commit
 * waits for the disk, so twenty posts written one transaction each cost twenty. Returns the
 * number of language versions now indexed.
 */
export async function reindexPosts(db: DB, postIds: readonly string[]): Promise<number> {
  // Read and segment first, write in one short transaction: segmenting a long
  // body takes a while, and a SQLite write transaction holds up every writer.
  const rows = new Map<string, PostSearchTable[]>();
  for (const id of postIds) rows.set(id, await indexRowsOf(db, id));
  const write = async (trx: DB) => {
    for (const [postId, list] of rows) {
      await trx.deleteFrom("postSearch").where("postId", "=", postId).execute();
      if (list.length > 0) await trx.insertInto("postSearch").values(list).execute();
    }
  };
  if (rows.size === 0) return 0;
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return [...rows.values()].reduce((n, list) => n + list.length, 0);
}

/** Rebuilds the index of every post (`npm run cli -- search:reindex`). */
export async function reindexAll(db: DB, opts: { batchSize?: number } = {}): Promise<{ posts: number; rows: number }> {
  const batchSize = opts.batchSize ?? 100;
  let posts = 0;
  let rows = 0;
  let after = "";
  for (;;) {
    const batch = await db
      .selectFrom("posts")
      .select("id")
      .where("id", ">", after)
      .orderBy("id")
      .limit(batchSize)
      .execute();
    for (const { id } of batch) {
      rows += await reindexPost(db, id);
      posts += 1;
    }
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) break;
    after = last.id;
  }
  return { posts, rows };
}
