import { afterEach, describe, expect, it } from "vitest";
import type { MediaImage } from "../../lib/media.ts";
import type { ImportRenderRequest } from "./render.server.ts";
import { type ImportRenderer, inProcessImportRenderer, workerImportRenderer } from "./render-pool.server.ts";

// The import's render worker (render-pool.server.ts): the same HTML as rendering on the calling
// thread, failures that fail only the posts the worker held, and a worker that leaves when idle.

const url = new URL("./render-worker.server.ts", import.meta.url);

const image: MediaImage = {
  id: "abcdefghij0123456789",
  src: "/media/abcdefghij0123456789/image.png",
  width: 640,
  height: 480,
  srcSet: "/media/abcdefghij0123456789/320.webp 320w",
};

const request: ImportRenderRequest = {
  bodies: [
    {
      locale: "en",
      markdown: [
        "## Brewing",
        "",
        "Water at 80 °C.[^1] ![cup](/media/abcdefghij0123456789/image.png)",
        "",
        "```ts\nconst cups = 2;\n```",
        "",
        "<script>alert(1)</script> [x](javascript:alert(1))",
        "",
        "[^1]: Or a little less.",
      ].join("\n"),
    },
    { locale: "zh", markdown: "## 泡茶\n\n水温八十度左右最好。[^1]\n\n[^1]: 脚注。" },
  ],
  media: new Map([[image.id, image]]),
};

describe("the import's render worker", () => {
  let renderer: (ImportRenderer & { running(): boolean }) | null = null;
  afterEach(async () => {
    await renderer?.close();
    renderer = null;
  });

  it("renders exactly what this thread would: highlighting, media sizes, footnotes in each language", async () => {
    renderer = workerImportRenderer({ url });
    const [viaWorker, here] = await Promise.all([renderer.render(request), inProcessImportRenderer.render(request)]);
    expect(viaWorker).toEqual(here);
    const [en, zh] = viaWorker;
    expect(en?.html).toContain('width="640"');
    expect(en?.html).toContain("320w");
    expect(en?.html).toContain("shiki");
    expect(en?.html).not.toMatch(/<script|javascript:/);
    expect(en?.toc).toEqual([{ depth: 2, id: "h-brewing", text: "Brewing" }]);
    expect(zh?.html).toContain("返回引用");
  });

  it("answers each of many posts sent at once with its own result", async () => {
    renderer = workerImportRenderer({ url });
    const many = Array.from({ length: 20 }, (_, i) =>
      renderer?.render({
        bodies: [{ locale: "en", markdown: `# Post ${i}` }],
        media: new Map(),
      }),
    );
    const results = await Promise.all(many);
    expect(results.map((r) => r?.[0]?.html)).toEqual(
      Array.from({ length: 20 }, (_, i) => `<h1 id="h-post-${i}">Post ${i}</h1>`),
    );
  });

  it("answers null for a body nested too deeply, and renders the rest of the post", async () => {
    renderer = workerImportRenderer({ url });
    const deep = `${">".repeat(200)} deep`;
    const out = await renderer.render({
      bodies: [
        { locale: "en", markdown: deep },
        { locale: "zh", markdown: "好" },
      ],
      media: new Map(),
    });
    expect(out[0]).toBeNull();
    expect(out[1]?.html).toBe("<p>好</p>");
  });

  it("fails every post a worker held when it dies, and starts a new worker for the next", async () => {
    // A worker that exits at its first message.
    const script =
      'import { parentPort } from "node:worker_threads"; parentPort.once("message", () => process.exit(3));';
    renderer = workerImportRenderer({ url: new URL(`data:text/javascript,${encodeURIComponent(script)}`) });
    const held = [renderer.render(request), renderer.render(request), renderer.render(request)];
    for (const post of held) await expect(post).rejects.toThrow(/exited \(code 3\)/);
    expect(renderer.running()).toBe(false);
    // The next post gets a worker of its own (which dies the same way) rather than waiting forever.
    await expect(renderer.render(request)).rejects.toThrow(/exited \(code 3\)/);
  });

  it("leaves when idle and comes back for the next post; closed, it refuses work", async () => {
    renderer = workerImportRenderer({ url, idleMs: 50 });
    await renderer.render(request);
    expect(renderer.running()).toBe(true);
    await expect.poll(() => renderer?.running(), { timeout: 5000 }).toBe(false);
    const again = await renderer.render(request);
    expect(again[0]?.html).toContain("shiki");
    await renderer.close();
    await expect(renderer.render(request)).rejects.toThrow(/closed/);
  });
});
