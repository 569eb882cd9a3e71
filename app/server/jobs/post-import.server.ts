import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { GHOST_SOURCE, ghostImageResolver } from "../import/ghost.server.ts";
import { localImageResolver } from "../import/images.server.ts";
import { WORDPRESS_SOURCE, wordpressImageResolver } from "../import/wordpress.server.ts";
import { importNextPostChunk, notePostImportFailure, type PostImportDeps } from "../repos/post-import.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";
import { acquireLease, INSTANCE_ID, type LeasedJob, startLeasedJob } from "./lease.server.ts";

export const POST_IMPORT_LEASE = "post-import";
/** How often the worker looks for an import when nobody pokes it. */
export const POST_IMPORT_INTERVAL_MS = 5000;

/** How every kind of import finds its images: files under the import's folder (Ghost's `/content/images/` paths inside it). */
export function importDeps(db: DB, storage: StorageDriver, uploadMaxBytes: number, log?: Logger): PostImportDeps {
  return {
    db,
    storage,
    ...(log ? { log } : {}),
    images: (kind, rootDir) =>
      kind === GHOST_SOURCE
        ? ghostImageResolver(rootDir, uploadMaxBytes)
        : kind === WORDPRESS_SOURCE
          ? wordpressImageResolver(rootDir, uploadMaxBytes)
          : localImageResolver(rootDir, uploadMaxBytes),
  };
}

/**
 * Works through queued post imports (docs/decisions/020-importers.md), a chunk per transaction, on
 * the holder of the "post-import" lease, the subscriber import's way: the lease is renewed between
 * chunks and a stop is honoured between chunks, so a clean stop and a kill -9 both leave the import
 * at a committed cursor. `onWritten` runs after each chunk that wrote posts (the caller tells every
 * instance that content and redirects changed).
 */
export function startPostImports(
  deps: PostImportDeps,
  log: Logger,
  opts: {
    intervalMs?: number;
    holder?: string;
    chunk?: number;
    onWritten?: () => Promise<void>;
    /** Runs when an import has finished (the server removes unpacked uploads nobody reads any more). */
    onDone?: () => Promise<void>;
  } = {},
): LeasedJob {
  const { intervalMs = POST_IMPORT_INTERVAL_MS, holder = INSTANCE_ID } = opts;
  const { db } = deps;
  let stopping = false;
  const job = startLeasedJob(db, log, {
    name: POST_IMPORT_LEASE,
    intervalMs,
    holder,
    run: async () => {
      let renewedAt = Date.now();
      while (!stopping) {
        const written: string[] = [];
        let outcome: Awaited<ReturnType<typeof importNextPostChunk>>;
        try {
          outcome = await importNextPostChunk(deps, { written, ...(opts.chunk ? { chunk: opts.chunk } : {}) });
        } catch (error) {
          log.warn({ err: error }, "a post import chunk failed; will retry");
          if (await notePostImportFailure(db, error)) log.error("a post import failed after repeated errors");
          return;
        }
        if (written.length > 0 && opts.onWritten) await opts.onWritten().catch(() => {});
        if (outcome === "idle") return;
        if (outcome === "done") {
          log.info("a post import finished");
          await opts.onDone?.().catch((error: unknown) => log.warn({ err: error }, "could not tidy finished imports"));
        }
        if (Date.now() - renewedAt > intervalMs) {
          if (!(await acquireLease(db, POST_IMPORT_LEASE, holder, intervalMs * 3))) return;
          renewedAt = Date.now();
        }
        // On SQLite every await above settles at once (the driver is synchronous): without a turn of
        // the event loop here, timers and requests (the CLI's progress line, the server's readers)
        // would wait for the whole import.
        await new Promise<void>((resolve) => setImmediate(resolve));
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
