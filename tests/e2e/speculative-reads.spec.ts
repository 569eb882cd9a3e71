import { INSIGHTS_FLUSH_INTERVAL_MS } from "../../app/server/insights/recorder.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { expect, test } from "./fixtures.ts";

// Chromium prefetches a hovered link (Speculation Rules, decision 024): the prefetch counts
// nothing on the server, and when the reader opens the page the reader script's HEAD beacon
// counts it once (Insights counts every read, unlike the view counter's once a day).

const run = Date.now().toString(36);

// Playwright's own "HeadlessChrome" is a bot to Insights, which counts no bot.
test.use({
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
});

test("a post hovered (prefetched) and then opened counts one read", async ({ page, serverDb }) => {
  const id = await createPost(serverDb.db, {
    slug: `speculated-${run}`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-22T08:00:00.000Z",
    translations: [{ locale: "en", title: `Speculated ${run}`, bodyHtml: "<p>Words.</p>" }],
  });
  const reads = async () => {
    const row = await serverDb.db
      .selectFrom("insightCounts")
      .select((eb) => eb.fn.sum<number>("count").as("n"))
      .where("metric", "=", "post")
      .where("key", "=", id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };
  const detail = new RegExp(`/en/posts/detail/${id}$`);
  await page.goto("/en/posts");
  const link = page.getByRole("link", { name: `Speculated ${run}` }).first();
  const speculative = page.waitForRequest(
    (r) => detail.test(r.url()) && /prefetch/.test(r.headers()["sec-purpose"] ?? ""),
  );
  await link.hover();
  await speculative;
  const beacon = page.waitForRequest((r) => r.method() === "HEAD" && detail.test(r.url()));
  await link.click();
  await expect(page).toHaveURL(detail);
  const sent = await beacon;
  expect(sent.headers()["x-inkwell-read"]).toBe("1");
  expect(sent.headers()["x-inkwell-referrer"]).toMatch(/\/en\/posts$/);
  await expect.poll(reads, { timeout: 3 * INSIGHTS_FLUSH_INTERVAL_MS }).toBe(1);
  // One more flush: nothing else (the prefetch, or a second GET) counted.
  await page.waitForTimeout(INSIGHTS_FLUSH_INTERVAL_MS + 1_000);
  expect(await reads()).toBe(1);
});
