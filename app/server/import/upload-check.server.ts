import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import type { CheckedPost } from "./check.server.ts";
import type { ImportReportLine } from "./core.server.ts";
import type { UploadCheckEvent, UploadCheckRequest, UploadRefusal } from "./upload-check-run.server.ts";

export type { UploadCheckEvent, UploadCheckRequest, UploadRefusal };

// The check of an upload on the admin Import page (docs/decisions/030-import-upload-budget.md):
// unpacking a zip and parsing an export run on a worker thread of their own, one per upload,
// never on the thread that serves requests. A 10 MB export held that thread for 11–13 s and a
// zip bomb for most of a minute; now it only stores the batches of checked posts the worker
// sends (waiting for each to be stored before the next is read) and answers other requests in
// between. The worker has a heap limit and a time budget: past either it is stopped and the
// upload refused.

export type UploadCheckOutcome =
  | { ok: true; problems: ImportReportLine[] }
  | { ok: false; refusal: UploadRefusal; detail: string };

export interface UploadCheckHandlers {
  onSource(source: { kind: string; rootDir: string; unpacked: string }): Promise<void>;
  /** Awaited before the next batch is read. */
  onPosts(items: Array<{ check: CheckedPost; payload: string }>): Promise<void>;
}

export interface UploadChecker {
  check(request: UploadCheckRequest, handlers: UploadCheckHandlers): Promise<UploadCheckOutcome>;
}

/** Past this the worker is stopped: far beyond any export within the upload limit. */
export const UPLOAD_CHECK_BUDGET_MS = 5 * 60_000;
/** The worker's heap: a streamed reader holds a batch of posts and a few small tables. */
export const UPLOAD_CHECK_HEAP_MB = 256;

/** What a file of this format is refused as when its reader fails. */
const unreadable = (format: UploadCheckRequest["format"]): UploadRefusal =>
  format === "json" ? "notGhost" : format === "xml" ? "notWordPress" : "notZip";

async function handle(
  event: UploadCheckEvent,
  handlers: UploadCheckHandlers,
  request: UploadCheckRequest,
  log: Logger | undefined,
): Promise<UploadCheckOutcome | null> {
  switch (event.type) {
    case "source":
      await handlers.onSource(event);
      return null;
    case "posts":
      await handlers.onPosts(event.items);
      return null;
    case "done":
      return { ok: true, problems: event.problems };
    case "refused":
      return { ok: false, refusal: event.refusal, detail: event.detail };
    case "failed":
      log?.error({ file: request.file, format: request.format, err: event.message }, "an upload's reader failed");
      return { ok: false, refusal: unreadable(request.format), detail: event.message.slice(0, 300) };
  }
}

/** Checks on the calling thread: for tests (and the comparison of where the work runs). */
export const inProcessUploadChecker: UploadChecker = {
  async check(request, handlers) {
    const { runUploadCheck } = await import("./upload-check-run.server.ts");
    let outcome: UploadCheckOutcome | null = null;
    /** An error of this thread's handlers (storing a batch): thrown as the worker checker does. */
    let own: unknown = null;
    try {
      await runUploadCheck(request, async (event) => {
        try {
          outcome = (await handle(event, handlers, request, undefined)) ?? outcome;
        } catch (error) {
          own = error;
          throw error;
        }
      });
    } catch (error) {
      if (own || outcome) throw error;
      const message = error instanceof Error ? error.message : String(error);
      outcome = await handle({ type: "failed", message }, handlers, request, undefined);
    }
    if (!outcome) throw new Error("the upload check ended without an answer");
    return outcome;
  },
};

/** Checks each upload on a worker thread of its own (`url`: upload-check-worker). */
export function workerUploadChecker(options: {
  url: URL;
  log?: Logger;
  budgetMs?: number;
  heapMb?: number;
}): UploadChecker {
  const budgetMs = options.budgetMs ?? UPLOAD_CHECK_BUDGET_MS;
  return {
    check(request, handlers) {
      return new Promise<UploadCheckOutcome>((resolve, reject) => {
        const worker = new Worker(options.url, {
          workerData: request,
          resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? UPLOAD_CHECK_HEAP_MB },
        });
        let settled = false;
        const settle = (result: { outcome: UploadCheckOutcome } | { error: Error }) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          if ("error" in result) reject(result.error);
          else resolve(result.outcome);
        };
        const tooComplex = (detail: string) => {
          options.log?.warn({ file: request.file, detail }, "upload check stopped");
          settle({ outcome: { ok: false, refusal: "tooComplex", detail } });
        };
        const timer = setTimeout(() => tooComplex(`took longer than ${budgetMs / 1000} s`), budgetMs);
        // One event at a time, in order: a batch is stored before the next is looked at.
        let queue = Promise.resolve();
        worker.on("message", (event: UploadCheckEvent) => {
          queue = queue.then(async () => {
            if (settled) return;
            try {
              const outcome = await handle(event, handlers, request, options.log);
              if (outcome) settle({ outcome });
              else if (event.type === "posts") worker.postMessage("next");
            } catch (error) {
              settle({ error: error instanceof Error ? error : new Error(String(error)) });
            }
          });
        });
        worker.on("error", (error: Error & { code?: string }) => {
          if (error.code === "ERR_WORKER_OUT_OF_MEMORY") tooComplex("needed more memory than an upload check has");
          else queue = queue.then(() => settle({ error }));
        });
        worker.on("exit", (code) => {
          queue = queue.then(() => settle({ error: new Error(`the upload check's worker exited (code ${code})`) }));
        });
      });
    },
  };
}
