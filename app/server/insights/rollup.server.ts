import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { type LeasedJob, startLeasedJob } from "../jobs/lease.server.ts";
import { rollUpInsights } from "./metrics.server.ts";

export const INSIGHTS_LEASE = "insights";
export const INSIGHTS_ROLLUP_INTERVAL_MS = 5 * 60_000;

/**
 * Counts each finished day's unique visitors, deletes its hashes and salt, and prunes old
 * rows: every few minutes, on the holder of the "insights" lease only.
 */
export function startInsightsRollup(
  db: DB,
  log: Logger,
  opts: { retentionDays: number; intervalMs?: number; holder?: string },
): LeasedJob {
  return startLeasedJob(db, log, {
    name: INSIGHTS_LEASE,
    intervalMs: opts.intervalMs ?? INSIGHTS_ROLLUP_INTERVAL_MS,
    ...(opts.holder ? { holder: opts.holder } : {}),
    run: async () => {
      const result = await rollUpInsights(db, { retentionDays: opts.retentionDays });
      if (result.countedDays.length > 0 || result.prunedRows > 0) log.info(result, "rolled up insights");
    },
  });
}
