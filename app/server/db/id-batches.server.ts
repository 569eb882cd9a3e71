import type { DB } from "./db.server.ts";

/**
 * Every post id in id order, `batchSize` at a time: for the jobs that walk all posts
 * (re-rendering, re-indexing) without holding the table in memory or one long read.
 */
export async function* postIdBatches(db: DB, batchSize = 100): AsyncGenerator<string[]> {
  let after = "";
  for (;;) {
    const batch = await db
      .selectFrom("posts")
      .select("id")
      .where("id", ">", after)
      .orderBy("id")
      .limit(batchSize)
      .execute();
    if (batch.length > 0) yield batch.map((r) => r.id);
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = last.id;
  }
}
