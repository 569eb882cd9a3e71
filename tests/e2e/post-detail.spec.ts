import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import type { NewPostInput } from "../../app/server/posts/lifecycle.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { renderMarkdown } from "../../app/server/render/markdown.server.ts";
import { readingMinutes } from "../../app/server/render/post-outline.server.ts";
import { updateSiteSettings } from "../../app/server/site/site-settings.server.ts";
import { createCategory, ensureTags } from "../../app/server/taxonomy/taxonomy.server.ts";
import { signedInUser } from "./account-helpers.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// The moderation test changes a site setting the others rely on: one at a time.
test.describe.configure({ mode: "serial" });
// Most tests register two or three accounts through the mail capture: slow on two cores.
test.setTimeout(ceiling(90_000));

const run = Date.now().toString(36);
let serial = 0;
const unique = (name: string) => {
  serial += 1;
  return `${name}-${run}-${serial}`;
};

type Translation = NewPostInput["translations"][number];

/**
 * A translation as the editor stores it: sanitized HTML and the reading time, and three
 * headings with fixed ids (a contents list needs three), the first one `heading`.
 */
function translation(locale: "en" | "zh", title: string, heading: string, text: string): Translation {
  const body = `${text}\n\n${text}`;
  const more = locale === "en" ? ["More", "Even more"] : ["更多", "还有更多"];
  return {
    locale,
    title,
    summary: `${title} — summary`,
    bodyMarkdown: `## ${heading}\n\n${text}\n\n## ${more[0]}\n\n### ${more[1]}\n`,
    bodyHtml: `<h2 id="section-one">${heading}</h2>${renderMarkdown(body)}<h2 id="section-two">${more[0]}</h2><h3 id="section-three">${more[1]}</h3>`,
    tocJson: JSON.stringify([
      { depth: 2, id: "section-one", text: heading },
      { depth: 2, id: "section-two", text: more[0] },
      { depth: 3, id: "section-three", text: more[1] },
    ]),
    readingMinutes: readingMinutes(body),
  };
}

async function publishedPost(db: DB, input: Partial<NewPostInput> = {}): Promise<string> {
  return createPost(db, {
    slug: unique("post"),
    authorId: null,
    status: "published",
    publishedAt: "2025-03-03T03:03:03.000Z",
    translations: [translation("en", unique("English title"), "Getting started", "Body text in English.")],
    ...input,
  });
}

async function userId(db: DB, email: string): Promise<string> {
  const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

/** A signed-in, verified user in a browser context of its own. */
async function otherUser(browser: import("@playwright/test").Browser, baseURL: string | undefined, tag: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = await signedInUser(page, tag);
  return { context, page, email };
}

const comments = (page: Page) => page.getByTestId("comment");

test("a published post shows title, body, contents and tags in English, and in Chinese with hreflang", async ({
  page,
  serverDb,
  baseURL,
}) => {
  const db = serverDb.db;
  const category = unique("cat");
  await createCategory(db, { slug: category, nameEn: "Field notes", nameZh: "田野笔记" });
  const categoryId = (
    await db.selectFrom("categories").select("id").where("slug", "=", category).executeTakeFirstOrThrow()
  ).id;
  const tagName = unique("Testing");
  const tagIds = await ensureTags(db, [tagName]);
  // "<" in a title must not end the JSON-LD script early.
  const enTitle = unique("Hello </script> detail");
  const zhTitle = `你好详情 ${run}`;
  const first = await publishedPost(db, {
    categoryId,
    tagIds,
    coverImageUrl: "/social.jpg",
    coverAlt: "A desk by a window",
    publishedAt: "2025-03-03T03:03:03.000Z",
    translations: [
      { ...translation("en", enTitle, "Getting started", "Body text in English."), seoDescription: "SEO words" },
      translation("zh", zhTitle, "开始", "这是中文正文。"),
    ],
  });
  const englishOnlyTitle = unique("Only English");
  const second = await publishedPost(db, {
    tagIds,
    publishedAt: "2025-03-03T03:03:04.000Z",
    translations: [translation("en", englishOnlyTitle, "Part one", "Only in English here.")],
  });

  const response = await page.goto(`/en/posts/detail/${first}`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(`${enTitle} · Inkwell`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(enTitle);
  const article = page.getByRole("article").first();
  await expect(article).toContainText("Body text in English.");
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  await expect(toc.getByRole("link", { name: "Getting started" })).toHaveAttribute("href", "#section-one");
  await expect(page.locator("#section-one")).toHaveText("Getting started");
  await expect(page.getByRole("main").getByRole("link", { name: "Field notes" })).toHaveAttribute(
    "href",
    `/en/categories/${category}`,
  );
  const tagSlug = tagName.toLowerCase();
  await expect(page.getByRole("list", { name: "Tags" }).getByRole("link")).toHaveAttribute(
    "href",
    `/en/tags/${tagSlug}`,
  );
  await expect(page.getByRole("link", { name: "Read this post in Chinese" })).toHaveAttribute(
    "href",
    `/zh/posts/detail/${first}`,
  );
  await expect(page.getByText("1 min read")).toBeVisible();
  await expect(page.locator("time").first()).toHaveAttribute("datetime", "2025-03-03T03:03:03.000Z");
  const cover = page.getByRole("img", { name: "A desk by a window" });
  await expect(cover).toHaveAttribute("width", "1200");
  await expect(cover).toHaveAttribute("height", "630");
  // The next post shares the tag: it is both "next" and related. (Older posts from
  // other files may be "previous": this file shares the server's database.)
  await expect(page.getByRole("navigation", { name: "Previous and next posts" }).locator('a[rel="next"]')).toHaveText(
    englishOnlyTitle,
  );
  await expect(page.getByRole("region", { name: "Related posts" }).getByRole("link")).toHaveText(englishOnlyTitle);
  await expect(page.getByRole("link", { name: "Sign in to comment" })).toBeVisible();

  // Head: canonical, both languages, article Open Graph, JSON-LD.
  const head = page.locator("head");
  await expect(head.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/en/posts/detail/${first}`);
  await expect(head.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute(
    "href",
    `${baseURL}/en/posts/detail/${first}`,
  );
  await expect(head.locator('link[rel="alternate"][hreflang="zh"]')).toHaveAttribute(
    "href",
    `${baseURL}/zh/posts/detail/${first}`,
  );
  await expect(head.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
  await expect(head.locator('meta[name="description"]')).toHaveAttribute("content", "SEO words");
  // The post's social card, at its fixed address (social-card.spec.ts).
  await expect(head.locator('meta[property="og:image"]')).toHaveAttribute(
    "content",
    `${baseURL}/cards/${first}/en.jpg`,
  );
  await expect(head.locator('meta[property="article:published_time"]')).toHaveAttribute(
    "content",
    "2025-03-03T03:03:03.000Z",
  );
  await expect(head.locator('meta[property="article:tag"]')).toHaveAttribute("content", tagName);
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(ld).toMatchObject({
    "@type": "BlogPosting",
    headline: enTitle,
    datePublished: "2025-03-03T03:03:03.000Z",
    inLanguage: "en-US",
    mainEntityOfPage: { "@id": `${baseURL}/en/posts/detail/${first}` },
  });
  // The cover, after the social card when there is one.
  expect(ld.image.at(-1)).toBe(`${baseURL}/social.jpg`);
  const html = (await response?.text()) ?? "";
  expect(html).toMatch(/<script type="application\/ld\+json" nonce="[^"]+">/);
  expect(html).toContain("Hello \\u003c/script> detail");
  // The body is in the document once (its text twice, as written). An anonymous reader's
  // page is a finished document (decision 024): no hydration data, and React never starts.
  expect(html.split("Body text in English.").length - 1).toBe(2);
  expect(html).not.toContain("__reactRouterContext");
  await expect(page.locator("#post-body")).toContainText("Body text in English.");
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
  // The next post and back again: documents of their own.
  await page.getByRole("navigation", { name: "Previous and next posts" }).locator('a[rel="next"]').click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(englishOnlyTitle);
  await expect(page.locator("#post-body")).toContainText("Only in English here.");
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(enTitle);
  await expect(page.locator("#post-body")).toContainText("Body text in English.");

  // Chinese: the Chinese version, Chinese interface.
  await page.getByRole("link", { name: "Read this post in Chinese" }).click();
  await expect(page).toHaveURL(new RegExp(`/zh/posts/detail/${first}$`));
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(zhTitle);
  await expect(page.getByRole("article").first()).toContainText("这是中文正文。");
  await expect(page.getByRole("navigation", { name: "目录" }).getByRole("link", { name: "开始" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "田野笔记" })).toHaveAttribute(
    "href",
    `/zh/categories/${category}`,
  );
  await expect(page.getByRole("link", { name: "阅读本文的英文版" })).toHaveAttribute(
    "href",
    `/en/posts/detail/${first}`,
  );
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute(
    "href",
    `${baseURL}/zh/posts/detail/${first}`,
  );

  // An English-only post read in Chinese: English text, labelled, one hreflang only.
  await page.goto(`/zh/posts/detail/${second}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(englishOnlyTitle);
  await expect(page.getByRole("article").first()).toHaveAttribute("lang", "en-US");
  await expect(page.getByText("本文暂无中文版本，以下为英文版。")).toBeVisible();
  await expect(page.locator('head link[rel="alternate"][hreflang="en"]')).toHaveCount(1);
  await expect(page.locator('head link[rel="alternate"][hreflang="zh"]')).toHaveCount(0);
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute(
    "href",
    `${baseURL}/en/posts/detail/${second}`,
  );
  await expect(page.getByRole("link", { name: "阅读本文的英文版" })).toHaveCount(0);
  // The previous post has a Chinese version: its link is in Chinese.
  await expect(page.getByRole("navigation", { name: "上一篇和下一篇" }).locator('a[rel="prev"]')).toHaveText(zhTitle);

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
});

/**
 * Where the title's lines start, as text: each line's first characters (up to 4) after
 * the first line, and whether the line starts a text node (a run after a `<wbr>`).
 */
function titleLineStarts(page: Page): Promise<{ text: string; atRun: boolean }[]> {
  return page.locator("#post-title").evaluate((h1) => {
    const starts: { text: string; atRun: boolean }[] = [];
    const walker = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let lastTop: number | null = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = range.getBoundingClientRect().top;
        if (lastTop !== null && top > lastTop + 5) starts.push({ text: text.slice(i, i + 4), atRun: i === 0 });
        lastTop = top;
      }
    }
    return starts;
  });
}

test("a Chinese title wraps between words only, at break points from the server", async ({ page, serverDb }) => {
  // Long enough for three or four lines at 320 px; every break inside a word is wrong.
  const title = "中华人民共和国成立七十周年纪念活动与数据库迁移工具的设计";
  const id = await publishedPost(serverDb.db, { translations: [translation("zh", title, "开始", "这是中文正文。")] });
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto(`/zh/posts/detail/${id}`);
  const heading = page.locator("#post-title");
  await expect(heading).toHaveText(title);
  expect(await heading.evaluate((h1) => getComputedStyle(h1).wordBreak)).toBe("keep-all");
  // The break points came from the server (the hydrated page has them too: no mismatch).
  expect(await heading.locator("wbr").count()).toBeGreaterThan(5);
  const starts = await titleLineStarts(page);
  expect(starts.length, "the title should wrap at 320 px").toBeGreaterThanOrEqual(2);
  expect(starts.filter((s) => !s.atRun)).toEqual([]);
  // The check can fail: without keep-all the browser breaks between any two characters.
  await page.addStyleTag({ content: "#post-title { word-break: normal !important; }" });
  expect((await titleLineStarts(page)).filter((s) => !s.atRun).length).toBeGreaterThan(0);
});

test("a draft is 404 for visitors and shown with a badge to its author, an admin", async ({
  page,
  browser,
  baseURL,
  serverDb,
}) => {
  const db = serverDb.db;
  const email = await signedInUser(page, "detail-admin");
  await addAdmins(db, [email], "cli");
  const authorId = await userId(db, email);
  const draftTitle = unique("Secret draft");
  const draft = await publishedPost(db, {
    authorId,
    status: "draft",
    publishedAt: null,
    translations: [translation("en", draftTitle, "Plans", "Not ready yet.")],
  });
  const scheduled = await publishedPost(db, {
    authorId,
    status: "scheduled",
    publishedAt: "2031-05-06T07:00:00.000Z",
    translations: [translation("en", unique("Coming soon"), "Soon", "Later.")],
  });

  const visitor = await browser.newContext({ baseURL });
  const anonymous = await visitor.newPage();
  for (const id of [draft, scheduled, "no-such-post", "bad%20id"]) {
    const response = await anonymous.goto(`/posts/detail/${id}`);
    expect(response?.status(), id).toBe(404);
    await expect(anonymous.getByTestId("error-message")).toContainText("Page not found");
  }
  await expect(anonymous.getByText(draftTitle)).toHaveCount(0);
  // Another signed-in reader who is neither the author nor an admin: also 404.
  const reader = await otherUser(browser, baseURL, "detail-reader");
  expect((await reader.page.goto(`/posts/detail/${draft}`))?.status()).toBe(404);
  await reader.context.close();
  await visitor.close();

  // The admin sees the page: reload so the admin flag counts.
  expect((await page.goto(`/posts/detail/${draft}`))?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(draftTitle);
  await expect(page.getByTestId("post-badges")).toHaveText("Draft");
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.getByText("Comments open once the post is published.")).toBeVisible();
  await page.goto(`/posts/detail/${scheduled}`);
  await expect(page.getByTestId("post-badges")).toHaveText("Scheduled for May 6, 2031");
});

test("a verified user comments; another cannot delete it, not even with a forged request", async ({
  page,
  browser,
  baseURL,
  serverDb,
}) => {
  const post = await publishedPost(serverDb.db);
  const alice = await signedInUser(page, "detail-alice");
  await page.goto(`/posts/detail/${post}`);
  const box = page.getByLabel("Your comment");

  // Too many links: a field error under the textarea, nothing stored.
  await box.fill("[a](https://a.example) [b](https://b.example) [c](https://c.example) https://d.example");
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(page.getByText("A comment can have at most 3 links.")).toBeVisible();
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await expect(comments(page)).toHaveCount(0);

  await box.fill("What a **lovely** post.");
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your comment was posted." }).first()).toBeVisible();
  await expect(comments(page)).toHaveCount(1);
  // Revalidated after the comment, the page still shows the post's body.
  await expect(page.locator("#post-body")).toContainText("Body text in English.");
  const mine = comments(page).first();
  await expect(mine).toContainText("What a lovely post.");
  await expect(mine.locator("strong")).toHaveText("lovely");
  await expect(mine).toContainText(alice.split("@")[0] ?? "");
  await expect(mine).not.toContainText(alice);
  await expect(mine.getByRole("button", { name: "Delete" })).toBeVisible();
  await expect(page.getByLabel("Your comment")).toHaveValue("");
  const commentId = ((await mine.locator("xpath=..").getAttribute("id")) ?? "").replace(/^comment-/, "");
  expect(commentId).not.toBe("");

  const bob = await otherUser(browser, baseURL, "detail-bob");
  await bob.page.goto(`/posts/detail/${post}`);
  await expect(comments(bob.page)).toHaveCount(1);
  await expect(comments(bob.page).getByRole("button", { name: "Delete" })).toHaveCount(0);

  // Bob forges the delete form's request for Alice's comment.
  const forged = await bob.page.request.post(`/posts/detail/${post}`, {
    form: { intent: "delete", commentId },
    headers: { Origin: baseURL ?? "" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  const still = await serverDb.db.selectFrom("comments").select("id").where("id", "=", commentId).execute();
  expect(still).toHaveLength(1);
  await bob.page.reload();
  await expect(comments(bob.page)).toHaveCount(1);

  // Bob replies; the reply sits under Alice's comment.
  await comments(bob.page).first().getByText("Reply", { exact: true }).click();
  await bob.page.getByLabel("Your reply").fill("Agreed!");
  await bob.page.getByRole("button", { name: "Post reply" }).click();
  await expect(bob.page.getByRole("list", { name: "Replies" }).getByTestId("comment")).toContainText("Agreed!");
  await bob.context.close();

  // Alice deletes her comment (after confirming); Bob's reply goes with it.
  await page.reload();
  await expect(page.getByRole("list", { name: "Replies" })).toContainText("Agreed!");
  page.once("dialog", (dialog) => void dialog.accept());
  await comments(page).first().getByRole("button", { name: "Delete" }).first().click();
  await expect(page.getByRole("status").filter({ hasText: "The comment was deleted." }).first()).toBeVisible();
  await expect(comments(page)).toHaveCount(0);
  await expect(page.getByText("No comments yet.")).toBeVisible();
});

test("in hold mode a new comment is pending and only its author sees it", async ({
  page,
  browser,
  baseURL,
  serverDb,
}) => {
  const db = serverDb.db;
  const post = await publishedPost(db);
  await updateSiteSettings(db, { commentModeration: "hold" });
  try {
    await signedInUser(page, "detail-held");
    await page.goto(`/zh/posts/detail/${post}`);
    await page.getByLabel("你的评论").fill("请审核我的评论");
    await page.getByRole("button", { name: "发表评论" }).click();
    await expect(page.getByRole("status").filter({ hasText: "审核通过后就会显示" }).first()).toBeVisible();
    await expect(comments(page)).toHaveCount(1);
    await expect(comments(page).first()).toContainText("等待审核");

    const other = await otherUser(browser, baseURL, "detail-other");
    await other.page.goto(`/posts/detail/${post}`);
    await expect(other.page.getByText("No comments yet.")).toBeVisible();
    await expect(comments(other.page)).toHaveCount(0);
    await other.context.close();

    const visitor = await browser.newContext({ baseURL });
    const anonymous = await visitor.newPage();
    await anonymous.goto(`/posts/detail/${post}`);
    await expect(comments(anonymous)).toHaveCount(0);
    await expect(anonymous.getByText("请审核我的评论")).toHaveCount(0);
    await visitor.close();
  } finally {
    await updateSiteSettings(db, { commentModeration: "auto" });
  }
});

test("commenting and replying work without JavaScript", async ({ browser, baseURL, serverDb }) => {
  const post = await publishedPost(serverDb.db);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  try {
    await signedInUser(page, "detail-nojs");
    await page.goto(`/posts/detail/${post}`);
    await page.getByRole("button", { name: "Post comment" }).click();
    await expect(page.getByText("Write a comment first.")).toBeVisible();
    await page.getByLabel("Your comment").fill("Plain HTML forms.");
    await page.getByRole("button", { name: "Post comment" }).click();
    await expect(page.getByTestId("flash-message")).toHaveText("Your comment was posted.");
    await expect(comments(page)).toHaveCount(1);
    await comments(page).first().getByText("Reply", { exact: true }).click();
    await page.getByLabel("Your reply").fill("Still no script.");
    await page.getByRole("button", { name: "Post reply" }).click();
    await expect(page.getByRole("list", { name: "Replies" })).toContainText("Still no script.");
  } finally {
    await context.close();
  }
});
