import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { importNextChunk, noteImportFailure } from "../repos/subscriber-import.server.ts";
import { acquireLease, INSTANCE_ID, type LeasedJob, startLeasedJob } from "./lease.server.ts";

export const IMPORT_LEASE = "subscriber-import";
/** How often the worker looks for an import when nobody pokes it (an upload does). */
export const IMPORT_INTERVAL_MS = 5000;

/**
 * Works through queued subscriber imports, a chunk per transaction, on the holder of the
 * "subscriber-import" lease: the lease is renewed between chunks, and a stop (shutdown) is
 * honoured between chunks, so a clean stop and a kill -9 both leave the import at a committed
 * cursor for the next holder to resume. A failing chunk is retried on the next run; after
 * IMPORT_MAX_FAILURES failures in a row the import is marked failed.
 */
export function startSubscriberImports(
  db: DB,
  log: Logger,
  opts: { intervalMs?: number; holder?: string } = {},
): LeasedJob {
  const { intervalMs = IMPORT_INTERVAL_MS, holder = INSTANCE_ID } = opts;
  let stopping = false;
  const job = startLeasedJob(db, log, {
    name: IMPORT_LEASE,
    intervalMs,
    holder,
    run: async () => {
      let renewedAt = Date.now();
      while (!stopping) {
        let outcome: Awaited<ReturnType<typeof importNextChunk>>;
        try {
          outcome = await importNextChunk(db);
        } catch (error) {
          log.warn({ err: error }, "a subscriber import chunk failed; will retry");
          if (await noteImportFailure(db)) log.error("a subscriber import failed after repeated errors");
          return;
        }
        if (outcome === "idle") return;
        if (outcome === "done") log.info("a subscriber import finished");
        // A long import keeps its lease, so no other instance works on it at the same time.
        if (Date.now() - renewedAt > intervalMs) {
          if (!(await acquireLease(db, IMPORT_LEASE, holder, intervalMs * 3))) return;
          renewedAt = Date.now();
        }
      }
    },
  });
  return {
    poke: () => job.poke(),
    idle: () => job.idle(),
    async stop() {
      stopping = true;
      await job.stop();
    },
  };
}
