import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { type LeasedJob, startLeasedJob } from "../jobs/lease.server.ts";
import { SCHEDULER, withPostLifecycle } from "./lifecycle.server.ts";
import { publishDueUpdates } from "./pending-edits.server.ts";

export const PUBLISH_INTERVAL_MS = 15_000;

/**
 * Publishes every scheduled post whose time has come, through the post lifecycle (one
 * transaction: the statuses, the newsletters of those with the box ticked, the audit
 * entries; then the index, the cached pages and the Fediverse). Returns the ids it published.
 */
export async function publishDuePosts(db: DB, now: Date = new Date()): Promise<string[]> {
  return withPostLifecycle(db, SCHEDULER, (life) => life.publishDue(), { now });
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
  } = {},
): LeasedJob {
  const { intervalMs = PUBLISH_INTERVAL_MS, holder } = opts;
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
    },
  });
}
