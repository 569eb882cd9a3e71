import type { DB } from "../../app/server/db/db.server.ts";
import { nowIso } from "../../app/server/db/db.server.ts";
import { insertPostRow, type NewPostInput } from "../../app/server/posts/lifecycle.server.ts";

/**
 * A post written straight into the tables, as another process (or a version before the post
 * lifecycle) would: the lifecycle's own rows, but no newsletter started, no audit entry, no
 * index rows, and the kept counts not told. For tests of what copes with such rows;
 * everything else creates posts through the lifecycle (createPost, withPostLifecycle).
 */
export async function insertRawPost(db: DB, input: NewPostInput): Promise<string> {
  const now = nowIso();
  return db.transaction().execute((trx) => insertPostRow(trx, input, now));
}
