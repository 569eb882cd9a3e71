import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { startNewsletters } from "../newsletter/sends.server.ts";
import { publishDueUpdates } from "../repos/pending-edits.server.ts";
import { afterPostWrite } from "../repos/post-editor.server.ts";
import { type LeasedJob, startLeasedJob } from "./lease.server.ts";

export const PUBLISH_INTERVAL_MS = 15_000;

/**
 * Publishes every scheduled post whose time has come, in one UPDATE: running it on
 * several instances at once is harmless (each row changes once). A post whose
 * "email subscribers" box was ticked starts its newsletter in the same transaction. Bumps each
 * post's version, so an editor still open on the scheduled post sees the change
 * as a conflict instead of saving over it. Returns the ids it published.
 */
export async function publishDuePosts(db: DB, now: Date = new Date()): Promise<string[]> {
  const at = nowIso(now);
  const rows = await db.transaction().execute(async (trx) => {
    const published = await trx
      .updateTable("posts")
      .set((eb) => ({ status: "published", updatedAt: at, version: eb("version", "+", 1) }))
      .where("status", "=", "scheduled")
      .where("publishedAt", "<=", at)
      .where("deletedAt", "is", null)
      .returning("id")
      .execute();
    // The newsletters of the posts going live commit with their publication.
    await startNewsletters(
      trx,
      published.map((r) => r.id),
      null,
      now,
    );
    return published;
  });
  for (const { id } of rows) await afterPostWrite(db, id);
  return rows.map((r) => r.id);
}

export const PUBLISH_LEASE = "publish-scheduled";

/**
 * Runs publishDuePosts now and every `intervalMs` on the holder of the job's lease
 * (a crashed holder is replaced within three intervals, ~45 s).
 */
export function startScheduledPublishing(
  db: DB,
  log: Logger,
  opts: {
    intervalMs?: number;
    holder?: string;
    /** After posts went live: tell every instance's render cache (the content version). */
    onPublished?: () => Promise<void>;
  } = {},
): LeasedJob {
  const { intervalMs = PUBLISH_INTERVAL_MS, holder, onPublished } = opts;
  return startLeasedJob(db, log, {
    name: PUBLISH_LEASE,
    intervalMs,
    ...(holder ? { holder } : {}),
    run: async () => {
      const ids = await publishDuePosts(db);
      // Live posts' scheduled updates (their pending changes) go out on the same beat.
      const updated = await publishDueUpdates(db);
      if (ids.length === 0 && updated.length === 0) return;
      if (ids.length > 0) log.info({ ids }, "published scheduled posts");
      if (updated.length > 0) log.info({ ids: updated }, "published scheduled updates");
      await onPublished?.();
    },
  });
}
