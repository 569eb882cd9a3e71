import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MarkdownTooDeep } from "../render/markdown.server.ts";
import {
  type CommentRenderer,
  CommentTooComplex,
  inProcessCommentRenderer,
  workerCommentRenderer,
} from "./comment-renderer.server.ts";

const url = new URL("./markdown-worker.server.ts", import.meta.url);
const log = pino({ level: "silent" });
/** Speaks the worker's protocol and never finishes the comment "hang". */
const hanging = new URL("./hanging-worker.fixture.ts", import.meta.url);

/** Resolves once a job's budget timer runs (the worker is ready and holds the job); real time. */
function budgetStarted(): Promise<void> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (vi.getTimerCount() === 0) return;
      clearInterval(poll);
      resolve();
    }, 10);
  });
}
/** About 100 ms of parsing on this machine: a list of 1,250 items, the size limit's worth. */
const heavy = "- a\n".repeat(1250);

describe("the comment renderer's worker thread", () => {
  let renderer: CommentRenderer | null = null;
  afterEach(async () => {
    await renderer?.close();
    renderer = null;
  });

  it("renders exactly what the request thread would, links counted", async () => {
    renderer = workerCommentRenderer({ url, log });
    const inputs = [
      "plain 中文 text",
      "**bold** [a](https://a.example) www.b.example c@d.example",
      "[bad](javascript:alert(1)) <script>x</script>",
      "> quote\n\n- one\n- two\n\n`code`",
    ];
    for (const markdown of inputs) {
      expect(await renderer.render(markdown)).toEqual(await inProcessCommentRenderer.render(markdown));
    }
  });

  it("leaves the request thread free while it parses", async () => {
    // Judged by this thread's CPU time, which a busy machine does not stretch: a parse
    // here costs its whole price on this thread, in the worker almost none of it. (The
    // order of the worker's answer and an event-loop turn is up to the scheduler.)
    const cpu = () => {
      const { user, system } = process.threadCpuUsage();
      return user + system;
    };
    await inProcessCommentRenderer.render(heavy);
    let before = cpu();
    await inProcessCommentRenderer.render(heavy);
    const here = cpu() - before;

    // A budget no busy machine reaches: this test is about where the work runs.
    renderer = workerCommentRenderer({ url, log, budgetMs: 600_000 });
    await renderer.render("warm up");
    await renderer.render(heavy);
    before = cpu();
    const rendered = await renderer.render(heavy);
    const there = cpu() - before;
    expect(rendered).toEqual(await inProcessCommentRenderer.render(heavy));
    expect(there, `request thread: ${there} µs with the worker, ${here} µs parsing itself`).toBeLessThan(here / 4);
  });

  it("stops a render past its budget, refuses it as too complex, and renders the next one", async () => {
    renderer = workerCommentRenderer({ url, log, budgetMs: 1 });
    await expect(renderer.render(heavy)).rejects.toBeInstanceOf(CommentTooComplex);
    const next = workerCommentRenderer({ url, log });
    await renderer.close();
    renderer = next;
    expect((await renderer.render("still *works*")).html).toBe("<p>still <em>works</em></p>");
  });

  it("replaces a worker stopped at its budget for the jobs waiting behind it", async () => {
    // The budget's clock is held: the job that never ends is stopped when we say so, and the
    // one behind it, on a fresh worker, has all the time a busy machine needs.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      renderer = workerCommentRenderer({ url: hanging, log, budgetMs: 150 });
      const slow = expect(renderer.render("hang")).rejects.toBeInstanceOf(CommentTooComplex);
      const quick = renderer.render("after");
      await budgetStarted();
      await vi.advanceTimersByTimeAsync(150);
      await slow;
      expect((await quick).html).toBe("<p>after</p>");
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses nesting past the cap as too deep", async () => {
    renderer = workerCommentRenderer({ url, log });
    await expect(renderer.render(">".repeat(40))).rejects.toBeInstanceOf(MarkdownTooDeep);
  });

  it("rejects what is still waiting when it closes", async () => {
    renderer = workerCommentRenderer({ url, log });
    const first = expect(renderer.render(heavy)).rejects.toThrow("closed");
    const second = expect(renderer.render("queued")).rejects.toThrow("closed");
    await renderer.close();
    await first;
    await second;
    await expect(renderer.render("after close")).rejects.toThrow("closed");
  });
});
