// The comment renderer's worker thread (see comment-renderer.server.ts): renders one
// comment per message, so the Markdown parse never runs on the thread serving requests.
// Built as its own entry (vite.config.ts); run from source by Node in development and tests.
import { parentPort } from "node:worker_threads";
import { renderCommentParts } from "../render/markdown.server.ts";

export interface RenderRequest {
  id: number;
  markdown: string;
}

export type RenderReply =
  | { id: number; ok: true; html: string; links: number }
  | { id: number; ok: false; tooDeep: boolean; message: string };

/** Sent once the Markdown pipeline is loaded: a job's time budget starts after this. */
export const READY = "ready";

parentPort?.on("message", (request: RenderRequest) => {
  let reply: RenderReply;
  try {
    reply = { id: request.id, ok: true, ...renderCommentParts(request.markdown) };
  } catch (error) {
    const tooDeep = error instanceof Error && error.name === "MarkdownTooDeep";
    reply = { id: request.id, ok: false, tooDeep, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});

parentPort?.postMessage(READY);
