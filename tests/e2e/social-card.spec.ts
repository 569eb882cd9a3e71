import { bumpContentVersion } from "../../app/server/cache/content-version.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// Issue 48: every post gets its own link-preview image per language, drawn in the background.

test.setTimeout(ceiling(60_000));

test("each language of a post gets its own social card, described in the head and served as a JPEG", async ({
  page,
  serverDb,
  baseURL,
  request,
}) => {
  const run = Date.now().toString(36);
  const en = `Cards for every post ${run}`;
  const zh = `每篇文章都有自己的分享图 ${run}`;
  const id = await createPost(serverDb.db, {
    slug: `social-card-${run}`,
    authorId: null,
    status: "published",
    publishedAt: "2025-05-05T05:05:05.000Z",
    translations: [
      { locale: "en", title: en, bodyMarkdown: "Text.", bodyHtml: "<p>Text.</p>" },
      { locale: "zh", title: zh, bodyMarkdown: "正文。", bodyHtml: "<p>正文。</p>" },
    ],
  });
  // Rows written straight into the database: the next content change wakes the card job.
  await bumpContentVersion(serverDb.db);

  const cards: Buffer[] = [];
  for (const [locale, title] of [
    ["en", en],
    ["zh", zh],
  ] as const) {
    // The page names the card's fixed address from the start.
    await page.goto(`/${locale}/posts/detail/${id}`);
    const url = `${baseURL}/cards/${id}/${locale}.jpg`;
    await expect(page.locator('head meta[property="og:image"]')).toHaveAttribute("content", url);
    const head = page.locator("head");
    await expect(head.locator('meta[property="og:image:width"]')).toHaveAttribute("content", "1200");
    await expect(head.locator('meta[property="og:image:height"]')).toHaveAttribute("content", "630");
    await expect(head.locator('meta[property="og:image:type"]')).toHaveAttribute("content", "image/jpeg");
    await expect(head.locator('meta[property="og:image:alt"]')).toHaveAttribute("content", title);
    await expect(head.locator('meta[name="twitter:image"]')).toHaveAttribute("content", url);
    await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(ld.image).toEqual([url]);
    expect(ld.publisher).toMatchObject({
      "@type": "Organization",
      // The site's name (another file may rename the site while this one runs).
      name: expect.stringMatching(/\S/),
      url: `${baseURL}/${locale}`,
    });

    // What an unfurler fetches: once the card is drawn in the background (until then the
    // address sends to the site image), a JPEG answered at the address itself, cacheable.
    let response = await request.get(url, { maxRedirects: 0 });
    if (response.status() !== 200) {
      expect(response.status()).toBe(302);
      expect(response.headers().location).toMatch(/\/social\.jpg$/);
    }
    await expect(async () => {
      response = await request.get(url, { maxRedirects: 0 });
      expect(response.status()).toBe(200);
    }).toPass({ timeout: ceiling(30_000) });
    expect(response.headers()["content-type"]).toBe("image/jpeg");
    expect(response.headers()["cache-control"]).toBe("public, max-age=3600");
    const body = await response.body();
    expect(Number(response.headers()["content-length"])).toBe(body.length);
    expect(body.subarray(0, 3).toString("hex")).toBe("ffd8ff");
    cards.push(body);
  }
  expect(cards[0]?.equals(cards[1] ?? Buffer.alloc(0))).toBe(false);
});
