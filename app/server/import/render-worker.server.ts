// The import render worker (render-pool.server.ts): renders one imported post per message, so an
// import's Markdown, highlighting and segmentation run beside the thread that writes the chunks.
// Built as its own entry (vite.config.ts); run from source by Node in the CLI and tests.
import { parentPort } from "node:worker_threads";
import { type ImportRenderRequest, type ImportRenderResult, renderImported } from "./render.server.ts";

export interface ImportRenderMessage {
  id: number;
  request: ImportRenderRequest;
}

export type ImportRenderReply =
  | { id: number; ok: true; result: ImportRenderResult }
  | { id: number; ok: false; message: string };

// Messages are handled one at a time in order: a post's render awaits the highlighter's first
// load, and answering out of order would not matter (replies carry their id), but one post at a
// time keeps the worker's memory to one post's trees.
let queue: Promise<void> = Promise.resolve();

parentPort?.on("message", (message: ImportRenderMessage) => {
  queue = queue.then(async () => {
    let reply: ImportRenderReply;
    try {
      reply = { id: message.id, ok: true, result: await renderImported(message.request) };
    } catch (error) {
      reply = { id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    parentPort?.postMessage(reply);
  });
});
