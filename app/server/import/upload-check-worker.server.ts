// The upload check's worker thread (upload-check.server.ts): one per upload, it reads the file
// named in its workerData and posts what it finds, waiting for "next" after each batch of posts.
// Built as its own entry (vite.config.ts); run from source by Node in tests.
import { parentPort, workerData } from "node:worker_threads";
import { runUploadCheck, type UploadCheckEvent, type UploadCheckRequest } from "./upload-check-run.server.ts";

const port = parentPort;
if (port) {
  const emit = (event: UploadCheckEvent) =>
    new Promise<void>((resolve) => {
      port.postMessage(event);
      if (event.type !== "posts") return resolve();
      port.once("message", () => resolve());
    });
  // The thread ends by itself once the end is posted (the checker also terminates it then).
  runUploadCheck(workerData as UploadCheckRequest, emit).catch((error: unknown) => {
    port.postMessage({
      type: "failed",
      message: error instanceof Error ? error.message : String(error),
    } satisfies UploadCheckEvent);
  });
}
