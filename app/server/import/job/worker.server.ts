import type { Logger } from "pino";
import type { DB } from "../../db/db.server.ts";
import { type LeasedJob, startChunkedJob } from "../../jobs/lease.server.ts";
import type { StorageDriver } from "../../storage/types.server.ts";
import { GHOST_SOURCE, ghostImageResolver } from "../ghost.server.ts";
import { type ImageResolver, localImageResolver } from "../images.server.ts";
import { REMOTE_FETCH_DEFAULTS } from "../remote-fetch.server.ts";
import type { ImportRenderer } from "../render-pool.server.ts";
import { WORDPRESS_SOURCE, wordpressImageResolver } from "../wordpress.server.ts";
import { importNextPostChunk } from "./runner.server.ts";
import { notePostImportFailure } from "./state.server.ts";
import type { PostImportDeps } from "./types.server.ts";

export const POST_IMPORT_LEASE = "post-import";
/** How often the worker looks for an import when nobody pokes it. */
export const POST_IMPORT_INTERVAL_MS = 5000;

/** The remote fetch for an import's deps: time-out, redirects and SSRF rules as decided (decision 020). */
export const remoteFetchOptions = (maxBytes: number): PostImportDeps["remote"] => ({
  ...REMOTE_FETCH_DEFAULTS,
  maxBytes,
});

/** Where an import of this kind finds its images: files under its folder (Ghost's `/content/images/`, WordPress's uploads). */
export function imageResolverFor(kind: string, rootDir: string, maxBytes: number): ImageResolver {
  return kind === GHOST_SOURCE
    ? ghostImageResolver(rootDir, maxBytes)
    : kind === WORDPRESS_SOURCE
      ? wordpressImageResolver(rootDir, maxBytes)
      : localImageResolver(rootDir, maxBytes);
}

/**
 * How every kind of import finds its images (imageResolverFor) and fetches remote ones.
 * `renderer`: where posts render (absent: on this thread).
 */
export function importDeps(
  db: DB,
  storage: StorageDriver,
  uploadMaxBytes: number,
  log?: Logger,
  renderer?: ImportRenderer,
): PostImportDeps {
  return {
    db,
    storage,
    ...(log ? { log } : {}),
    ...(renderer ? { renderer } : {}),
    remote: remoteFetchOptions(uploadMaxBytes),
    images: (kind, rootDir) => imageResolverFor(kind, rootDir, uploadMaxBytes),
  };
}

/**
 * Works through queued post imports (docs/decisions/020-importers.md), a chunk per transaction, on
 * the holder of the "post-import" lease (startChunkedJob: a stop or a kill leaves the import at a
 * committed cursor). `onWritten` runs after each chunk that wrote posts or pages (the caller tells every
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
  const { db } = deps;
  return startChunkedJob(db, log, {
    name: POST_IMPORT_LEASE,
    intervalMs: opts.intervalMs ?? POST_IMPORT_INTERVAL_MS,
    ...(opts.holder ? { holder: opts.holder } : {}),
    nextChunk: async () => {
      const written: string[] = [];
      let pages = false;
      const outcome = await importNextPostChunk(deps, {
        written,
        wrotePages: () => {
          pages = true;
        },
        ...(opts.chunk ? { chunk: opts.chunk } : {}),
      });
      if ((written.length > 0 || pages) && opts.onWritten) await opts.onWritten().catch(() => {});
      if (outcome === "done") {
        log.info("a post import finished");
        await opts.onDone?.().catch((error: unknown) => log.warn({ err: error }, "could not tidy finished imports"));
      }
      return outcome;
    },
    onError: async (error) => {
      log.warn({ err: error }, "a post import chunk failed; will retry");
      if (await notePostImportFailure(db, error)) log.error("a post import failed after repeated errors");
    },
  });
}
