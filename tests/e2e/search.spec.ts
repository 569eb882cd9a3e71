import type { DB } from "../../app/server/db/db.server.ts";
import type { NewPostInput } from "../../app/server/posts/lifecycle.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { renderMarkdown } from "../../app/server/render/markdown.server.ts";
import { reindexPost } from "../../app/server/search/index.server.ts";
import { axeFindings, rulesFor } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

// The posts are written straight into the server's database and indexed, as the
// editor does on save. The file runs in order: the first test creates them.
test.describe.configure({ mode: "serial" });

const ids: Record<string, string> = {};

async function post(
  db: DB,
  slug: string,
  status: NewPostInput["status"],
  publishedAt: string,
  versions: Array<{ locale: "en" | "zh"; title: string; summary?: string; markdown: string }>,
): Promise<void> {
  const id = await createPost(db, {
    slug,
    authorId: null,
    status,
    publishedAt,
    translations: versions.map((v) => ({
      locale: v.locale,
      title: v.title,
      summary: v.summary ?? "",
      bodyMarkdown: v.markdown,
      bodyHtml: renderMarkdown(v.markdown),
    })),
  });
  await reindexPost(db, id);
  ids[slug] = id;
}

test("posts written and indexed are found by Chinese and English words", async ({ page, serverDb }) => {
  const db = serverDb.db;
  await post(db, "zh-test", "published", "2026-11-20T08:00:00.000Z", [
    { locale: "zh", title: "中文分词", summary: "关于搜索。", markdown: "我们在测试中文搜索功能，看看效果。" },
  ]);
  await post(db, "zh-apart", "published", "2026-11-21T08:00:00.000Z", [
    { locale: "zh", title: "零散笔记", markdown: "测 和 试 分开写，还有测验试卷。" },
  ]);
  await post(db, "walrus", "published", "2026-11-22T08:00:00.000Z", [
    { locale: "en", title: "Walrus watching", summary: "A trip north.", markdown: "We saw a walrus." },
    { locale: "zh", title: "观察海象", markdown: "我们看到了海象。" },
  ]);
  await post(db, "walrus-script", "published", "2026-11-19T08:00:00.000Z", [
    { locale: "en", title: "Escaping", markdown: "The `<script>alert(1)</script>` tag next to a walrus is harmless." },
  ]);
  await post(db, "walrus-draft", "draft", "2026-11-23T08:00:00.000Z", [
    { locale: "en", title: "Secret walrus draft", markdown: "Not yet." },
  ]);

  // Chinese: the word 测试 finds its post, not the one with 测 and 试 apart.
  await page.goto("/zh/search");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.getByRole("heading", { level: 1, name: "搜索" })).toBeVisible();
  const box = page.getByRole("searchbox", { name: "搜索中英文文章" });
  await box.fill("测试");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/zh\/search\?q=%E6%B5%8B%E8%AF%95$/);
  await expect(page.getByRole("status")).toHaveText("找到 1 篇与“测试”匹配的文章");
  const results = page.getByRole("listitem").filter({ has: page.getByRole("article") });
  await expect(results).toHaveCount(1);
  await expect(results.getByRole("link", { name: "中文分词" })).toHaveAttribute(
    "href",
    `/zh/posts/detail/${ids["zh-test"]}`,
  );
  await expect(results.locator("mark")).toHaveText("测试");
  await expect(page.getByText("零散笔记")).toHaveCount(0);
  await expect(page.getByRole("searchbox", { name: "搜索中英文文章" })).toHaveValue("测试");

  // English: the word finds both published posts, never the draft; the <script> in
  // a body comes out as text. (Asked for by address: the /zh pages made Chinese the remembered language.)
  await page.goto("/en/search?q=Walrus");
  await expect(page.getByRole("searchbox", { name: "Search posts in English and Chinese" })).toHaveValue("Walrus");
  await expect(page.getByRole("status")).toHaveText("2 posts match “Walrus”");
  await expect(results).toHaveCount(2);
  await expect(results.nth(0).getByRole("heading")).toHaveText("Walrus watching");
  await expect(results.nth(0).locator("time")).toHaveAttribute("datetime", "2026-11-22T08:00:00.000Z");
  await expect(results.nth(0).locator("mark")).toHaveText(["walrus"]);
  await expect(results.nth(1)).toContainText("The <script>alert(1)</script> tag next to a walrus is harmless.");
  await expect(results.nth(1).locator("script")).toHaveCount(0);
  await expect(page.getByText("Secret walrus draft")).toHaveCount(0);
});

test("results in the other language carry a language label", async ({ page }) => {
  await page.goto("/en/search?q=%E6%B5%8B%E8%AF%95");
  const results = page.getByRole("listitem").filter({ has: page.getByRole("article") });
  await expect(results).toHaveCount(1);
  await expect(results.getByRole("article")).toHaveAttribute("lang", "zh-CN");
  await expect(results).toContainText("In Chinese");
  await expect(results.getByRole("link", { name: "中文分词" })).toHaveAttribute(
    "href",
    `/en/posts/detail/${ids["zh-test"]}`,
  );
});

test("an empty query shows the form only; no match shows an empty state", async ({ page }) => {
  await page.goto("/search");
  await expect(page.getByText("Type a word or two to search every post")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(0);
  await page.goto(`/search?q=${encodeURIComponent(`' OR 1=1 -- %_"*NEAR(`)}`);
  await expect(page.getByRole("status")).toHaveText(`No posts match “' OR 1=1 -- %_"*NEAR(”.`);
  await expect(page.getByRole("article")).toHaveCount(0);
});

test("results are paginated ten to a page, and a page past the last is 404", async ({ page, serverDb }) => {
  for (let i = 1; i <= 12; i++) {
    await post(serverDb.db, `quokka-${i}`, "published", `2026-10-${String(i).padStart(2, "0")}T08:00:00.000Z`, [
      { locale: "en", title: `Quokka ${i}`, markdown: "A quokka smiles." },
    ]);
  }
  await page.goto("/search?q=quokka");
  const results = page.getByRole("listitem").filter({ has: page.getByRole("article") });
  await expect(results).toHaveCount(10);
  await expect(results.first().getByRole("heading")).toHaveText("Quokka 12");
  const pages = page.getByRole("navigation", { name: "Result pages" });
  await expect(pages).toContainText("Page 1 of 2");
  await pages.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/\/search\?q=quokka&page=2$/);
  await expect(results).toHaveCount(2);
  await expect(results.last().getByRole("heading")).toHaveText("Quokka 1");
  await expect(page.getByRole("searchbox")).toHaveValue("quokka");

  for (const bad of ["3", "0", "-1", "abc", "1e9", "999999999"]) {
    const response = await page.goto(`/search?q=quokka&page=${bad}`);
    expect(response?.status(), bad).toBe(404);
  }
});

test("a word in more posts than a search ranks says so, in both languages", async ({ page, serverDb }) => {
  // SEARCH_CANDIDATES (200) posts are ranked; one more makes the count open-ended.
  for (let i = 1; i <= 201; i++) {
    await post(serverDb.db, `numbat-${i}`, "published", "2026-09-01T08:00:00.000Z", [
      { locale: "en", title: `Field note ${i}`, markdown: "A numbat crossed the track." },
    ]);
  }
  await page.goto("/search?q=numbat");
  await expect(page.getByRole("status")).toHaveText(
    "More than 200 posts match “numbat”. Add a word to narrow the search.",
  );
  await expect(page.getByRole("navigation", { name: "Result pages" })).toContainText("Page 1 of 20");
  expect((await page.goto("/search?q=numbat&page=20"))?.status()).toBe(200);
  expect((await page.goto("/search?q=numbat&page=21"))?.status()).toBe(404);
  await page.goto("/zh/search?q=numbat");
  await expect(page.getByRole("status")).toHaveText("与“numbat”匹配的文章超过 200 篇，再加一个词可以缩小范围。");
});

test("the header's search button opens the search page in the page's language", async ({ page }) => {
  await page.goto("/zh/posts");
  await page.getByRole("link", { name: "搜索文章" }).click();
  await expect(page).toHaveURL(/\/zh\/search$/);
  await page.goto("/en/about");
  await page.getByRole("link", { name: "Search posts" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/en\/search$/);
  await page.getByRole("searchbox").fill("walrus");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("2 posts match “walrus”");
});

for (const theme of ["light", "dark"] as const) {
  test(`axe finds no violations on the search page (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    for (const path of ["/search", "/zh/search?q=%E6%B5%8B%E8%AF%95", "/en/search?q=quokka"]) {
      await page.goto(path);
      expect(await axeFindings(page, { rules: rulesFor(theme) }), `${theme} ${path}`).toEqual([]);
    }
  });
}
