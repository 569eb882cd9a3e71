import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { type ImportRenderRequest, type ImportRenderResult, renderImported } from "./render.server.ts";
import type { ImportRenderMessage, ImportRenderReply } from "./render-worker.server.ts";

/**
 * Renders imported posts (render.server.ts). The server and the CLI render on a worker thread, so
 * the thread that writes an import's chunks can write one while the next one renders: rendering
 * is about half of an import's CPU, and the machine has a second core.
 */
export interface ImportRenderer {
  render(request: ImportRenderRequest): Promise<ImportRenderResult>;
  close(): Promise<void>;
}

/** Renders on the calling thread: for tests and code with no worker to spare. */
export const inProcessImportRenderer: ImportRenderer = {
  render: renderImported,
  close: async () => {},
};

/** A worker left without work for this long exits (its memory goes back); the next post starts a new one. */
export const IMPORT_RENDER_IDLE_MS = 30_000;

interface Pending {
  resolve(result: ImportRenderResult): void;
  reject(error: Error): void;
}

/**
 * One worker thread rendering posts in the order they are sent, any number waiting. A worker that
 * fails or exits fails the posts it held (their chunk is retried, as after any error) and the next
 * post starts a new one. While posts are waiting the worker keeps the process alive.
 */
export function workerImportRenderer(options: {
  url: URL;
  log?: Logger;
  idleMs?: number;
}): ImportRenderer & { /** Whether a worker thread is up now. */ running(): boolean } {
  const idleMs = options.idleMs ?? IMPORT_RENDER_IDLE_MS;
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  let nextId = 1;
  let closed = false;

  function failAll(error: Error): void {
    const waiting = [...pending.values()];
    pending.clear();
    for (const p of waiting) p.reject(error);
  }

  function settle(w: Worker): void {
    if (pending.size > 0) return;
    w.unref();
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      idle = null;
      if (worker !== w || pending.size > 0) return;
      worker = null;
      void w.terminate();
    }, idleMs);
    idle.unref();
  }

  function spawn(): Worker {
    const w = new Worker(options.url);
    w.on("message", (reply: ImportRenderReply) => {
      const p = pending.get(reply.id);
      if (!p || worker !== w) return;
      pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.result);
      else p.reject(new Error(reply.message));
      settle(w);
    });
    w.on("error", (error) => {
      options.log?.error({ err: error }, "import render worker failed");
      if (worker !== w) return;
      worker = null;
      failAll(error);
    });
    w.on("exit", (code) => {
      if (worker !== w) return;
      worker = null;
      failAll(new Error(`import render worker exited (code ${code})`));
    });
    return w;
  }

  return {
    running: () => worker !== null,
    render(request) {
      if (closed) return Promise.reject(new Error("import renderer closed"));
      if (idle) {
        clearTimeout(idle);
        idle = null;
      }
      if (!worker) worker = spawn();
      const w = worker;
      w.ref();
      const id = nextId++;
      return new Promise<ImportRenderResult>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.postMessage({ id, request } satisfies ImportRenderMessage);
      });
    },
    async close() {
      closed = true;
      if (idle) clearTimeout(idle);
      idle = null;
      failAll(new Error("import renderer closed"));
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
