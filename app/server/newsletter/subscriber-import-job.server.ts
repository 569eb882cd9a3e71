import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { type LeasedJob, startChunkedJob } from "../jobs/lease.server.ts";
import { importNextChunk, noteImportFailure } from "./subscriber-import.server.ts";

export const IMPORT_LEASE = "subscriber-import";
/** How often the worker looks for an import when nobody pokes it (an upload does). */
export const IMPORT_INTERVAL_MS = 5000;

/**
 * Works through queued subscriber imports, a chunk per transaction, on the holder of the
 * "subscriber-import" lease (startChunkedJob: a stop or a kill leaves the import at a committed
 * cursor for the next holder). A failing chunk is retried on the next run; after
 * IMPORT_MAX_FAILURES failures in a row the import is marked failed.
 */
export function startSubscriberImports(
  db: DB,
  log: Logger,
  opts: { intervalMs?: number; holder?: string } = {},
): LeasedJob {
  return startChunkedJob(db, log, {
    name: IMPORT_LEASE,
    intervalMs: opts.intervalMs ?? IMPORT_INTERVAL_MS,
    ...(opts.holder ? { holder: opts.holder } : {}),
    nextChunk: async () => {
      const outcome = await importNextChunk(db);
      if (outcome === "done") log.info("a subscriber import finished");
      return outcome;
    },
    onError: async (error) => {
      log.warn({ err: error }, "a subscriber import chunk failed; will retry");
      if (await noteImportFailure(db)) log.error("a subscriber import failed after repeated errors");
    },
  });
}
