// `npm run bench:comments`: how long rendering the slowest comments within the size limit
// (5,000 characters of dense markup) holds the thread that serves requests, rendered on it
// and through the comment renderer's worker thread. Target (issue 19): no request blocks the
// event loop for more than ~50 ms. Prints a Markdown table.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pino } from "pino";
import { inProcessCommentRenderer, workerCommentRenderer } from "../app/server/comments/comment-renderer.server.ts";

const N = 5000;
/** Found by timing each Markdown construct repeated to the limit; the slowest ones. */
const CRAFTED: Record<string, string> = {
  "emphasis runs `*a*a…`": "*a".repeat(N / 2),
  "strikethrough runs `~a~a…`": "~a".repeat(N / 2),
  "a 1,250-item list": "- a\n".repeat(N / 4),
  "a 1,000-item ordered list": "1. a\n".repeat(N / 5),
  "714 reference definitions": "[a]: b\n".repeat(Math.floor(N / 7)),
  "brackets `[a[a…`": "[a".repeat(N / 2),
};
const TARGET_MS = 50;
const ROUNDS = 5;

async function worstDelay(render: (markdown: string) => Promise<unknown>, markdown: string): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const turn = () => new Promise((resolve) => setTimeout(resolve, 2));
  // The histogram's first sample starts its clock: let it tick before the first render.
  await turn();
  // Renders one after another, as separate comment posts arrive, the loop turning between them.
  for (let i = 0; i < ROUNDS; i++) {
    await render(markdown);
    await turn();
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  return histogram.max / 1e6;
}

const worker = workerCommentRenderer({
  url: new URL("../app/server/comments/markdown-worker.server.ts", import.meta.url),
  log: pino({ level: "silent" }),
  budgetMs: 10_000,
});
await worker.render("warm up");
const rows: string[] = [];
let ok = true;
for (const [name, markdown] of Object.entries(CRAFTED)) {
  await inProcessCommentRenderer.render(markdown); // warm the JIT for a fair "before"
  const before = await worstDelay(inProcessCommentRenderer.render, markdown);
  const after = await worstDelay(worker.render, markdown);
  ok &&= after <= TARGET_MS;
  rows.push(`| ${name} | ${before.toFixed(0)} ms | ${after.toFixed(0)} ms |`);
}
await worker.close();
console.log(`Longest event-loop delay while rendering ${ROUNDS} comments in a row (target ≤ ${TARGET_MS} ms)\n`);
console.log("| comment | on the request thread | on the worker thread |");
console.log("|---|---|---|");
for (const row of rows) console.log(row);
console.log(`\n${ok ? "within" : "OVER"} the target`);
process.exitCode = ok ? 0 : 1;
