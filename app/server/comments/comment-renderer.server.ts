import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { MarkdownTooDeep } from "../../lib/markdown-depth.ts";
import { markdownModule } from "../render/markdown-load.server.ts";
import type { READY, RenderReply, RenderRequest } from "./markdown-worker.server.ts";

export interface RenderedComment {
  html: string;
  links: number;
}

/**
 * Renders a comment's Markdown. In the server it runs on a worker thread: parsing a
 * 5,000-character comment of dense markup (a long list, `*a*a…`, reference definitions)
 * takes 50–150 ms of CPU, which on the request thread blocked every other reader for that
 * long. A render that runs past its time budget is stopped (the worker is replaced) and
 * refused as too complex, so no input within the size limits can hold a thread for long.
 */
export interface CommentRenderer {
  /** Rejects with CommentTooComplex past the budget, MarkdownTooDeep past the nesting cap. */
  render(markdown: string): Promise<RenderedComment>;
  close(): Promise<void>;
}

export class CommentTooComplex extends Error {
  override name = "CommentTooComplex";
  constructor(budgetMs: number) {
    super(`the comment took longer than ${budgetMs} ms to render`);
  }
}

/** The budget one comment gets: ten times the slowest input found, so only the pathological is refused. */
export const COMMENT_RENDER_BUDGET_MS = 1_500;

/** Renders on the calling thread: for code that is not serving requests (tests, scripts). */
export const inProcessCommentRenderer: CommentRenderer = {
  render: async (markdown) => (await markdownModule()).renderCommentParts(markdown),
  close: async () => {},
};

interface Job {
  request: RenderRequest;
  resolve(value: RenderedComment): void;
  reject(error: Error): void;
}

/**
 * One worker thread rendering comments in turn (comments are rare next to page views; one
 * thread keeps the second core for requests). Jobs wait in order; the one running has
 * `budgetMs`, after which its worker is terminated and the next job starts a fresh one.
 */
export function workerCommentRenderer(options: { url: URL; log: Logger; budgetMs?: number }): CommentRenderer {
  const budgetMs = options.budgetMs ?? COMMENT_RENDER_BUDGET_MS;
  const queue: Job[] = [];
  let worker: Worker | null = null;
  /** Whether `worker` has loaded the pipeline: its first job's budget must not pay for that. */
  let ready = false;
  let running: { job: Job; timer: NodeJS.Timeout; worker: Worker } | null = null;
  let nextId = 1;
  let closed = false;

  function spawn(): Worker {
    const w = new Worker(options.url);
    w.unref();
    w.on("message", (reply: RenderReply | typeof READY) => {
      if (reply === "ready") {
        if (worker === w) ready = true;
        pump();
        return;
      }
      if (running?.worker !== w || running.job.request.id !== reply.id) return;
      const { job, timer } = running;
      clearTimeout(timer);
      running = null;
      if (reply.ok) job.resolve({ html: reply.html, links: reply.links });
      else job.reject(reply.tooDeep ? new MarkdownTooDeep() : new Error(reply.message));
      pump();
    });
    w.on("error", (error) => {
      options.log.error({ err: error }, "comment renderer worker failed");
      if (worker === w) worker = null;
      fail(w, error);
    });
    w.on("exit", () => {
      if (worker === w) worker = null;
      fail(w, new Error("comment renderer worker exited"));
    });
    return w;
  }

  /** The job running on `w` fails (its worker is gone or broken); the next one gets a new worker. */
  function fail(w: Worker, error: Error): void {
    if (running?.worker !== w) return;
    const { job, timer } = running;
    clearTimeout(timer);
    running = null;
    job.reject(error);
    pump();
  }

  function pump(): void {
    if (running || closed || queue.length === 0) return;
    if (!worker) {
      ready = false;
      worker = spawn();
    }
    if (!ready) return; // the ready message pumps again
    const job = queue.shift();
    if (!job) return;
    const current = worker;
    const timer = setTimeout(() => {
      if (running?.job !== job) return;
      running = null;
      worker = null;
      void current.terminate();
      options.log.warn({ budgetMs, length: job.request.markdown.length }, "comment render stopped at its time budget");
      job.reject(new CommentTooComplex(budgetMs));
      pump();
    }, budgetMs);
    running = { job, timer, worker: current };
    current.postMessage(job.request);
  }

  return {
    render(markdown) {
      if (closed) return Promise.reject(new Error("comment renderer closed"));
      return new Promise<RenderedComment>((resolve, reject) => {
        queue.push({ request: { id: nextId++, markdown }, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("comment renderer closed"));
      if (running) fail(running.worker, new Error("comment renderer closed"));
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
