import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { afterPostWrite } from "../repos/post-editor.server.ts";
import { acquireLease, INSTANCE_ID, releaseLease } from "./lease.server.ts";

export const PUBLISH_INTERVAL_MS = 15_000;

/**
 * Publishes every scheduled post whose time has come, in one UPDATE: running it on
 * several instances at once is harmless (each row changes once). Bumps each
 * post's version, so an editor still open on the scheduled post sees the change
 * as a conflict instead of saving over it. Returns the ids it published.
 */
export async function publishDuePosts(db: DB, now: Date = new Date()): Promise<string[]> {
  const at = nowIso(now);
  const rows = await db
    .updateTable("posts")
    .set((eb) => ({ status: "published", updatedAt: at, version: eb("version", "+", 1) }))
    .where("status", "=", "scheduled")
    .where("publishedAt", "<=", at)
    .where("deletedAt", "is", null)
    .returning("id")
    .execute();
  for (const { id } of rows) await afterPostWrite(db, id);
  return rows.map((r) => r.id);
}

export interface ScheduledPublisher {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export const PUBLISH_LEASE = "publish-scheduled";

/**
 * Runs publishDuePosts now and every `intervalMs`, never two runs at once, and
 * on one instance only: the holder of the job's lease (renewed on every run,
 * valid for three intervals, so a crashed holder is replaced within ~45 s).
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
): ScheduledPublisher {
  const { intervalMs = PUBLISH_INTERVAL_MS, holder = INSTANCE_ID, onPublished } = opts;
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = acquireLease(db, PUBLISH_LEASE, holder, intervalMs * 3)
      .then((held) => (held ? publishDuePosts(db) : []))
      .then(async (ids) => {
        if (ids.length === 0) return;
        log.info({ ids, holder }, "published scheduled posts");
        await onPublished?.();
      })
      .catch((error: unknown) => log.error({ err: error }, "publishing scheduled posts failed"))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await releaseLease(db, PUBLISH_LEASE, holder).catch(() => {});
    },
  };
}
