// A stand-in for markdown-worker.server.ts in comment-renderer.server.test.ts: it speaks the
// same protocol, never answers "hang" (so a budget must stop it on any machine, fast or busy)
// and answers anything else at once.
import { parentPort } from "node:worker_threads";
import type { RenderReply, RenderRequest } from "./markdown-worker.server.ts";

parentPort?.on("message", (request: RenderRequest) => {
  if (request.markdown === "hang") for (;;);
  const reply: RenderReply = { id: request.id, ok: true, html: `<p>${request.markdown}</p>`, links: 0 };
  parentPort?.postMessage(reply);
});
parentPort?.postMessage("ready");
