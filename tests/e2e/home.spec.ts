import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin, signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// These tests share the server's database: the empty state must be seen before
// any post exists, so the file runs in order.
test.describe.configure({ mode: "serial" });

test("the home page shows an empty state in English on a fresh blog", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page).toHaveTitle("Inkwell");
  await expect(page.getByRole("heading", { level: 1, name: "Latest posts" })).toBeVisible();
  await expect(page.getByTestId("empty-site")).toContainText("Nothing here yet.");
});

test("on a fresh blog its owner is shown where to start", async ({ page, serverDb }) => {
  await signedInAdmin(page, serverDb.db, "home-owner");
  await page.goto("/");
  const start = page.getByTestId("empty-site");
  await expect(start.getByRole("heading", { name: "Your blog is ready" })).toBeVisible();
  await expect(start.getByRole("link", { name: "Site settings" })).toHaveAttribute("href", "/admin/config");
  await expect(start.getByRole("link", { name: "Import a blog" })).toHaveAttribute("href", "/admin/import");
  await start.getByRole("link", { name: "Write the first post" }).click();
  await expect(page).toHaveURL(/\/posts\/createPost$/);
});

test("the home page is in Chinese when the locale cookie says zh", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "locale", value: "zh", url: baseURL ?? "" }]);
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page).toHaveTitle("墨水博客");
  await expect(page.getByRole("heading", { level: 1, name: "最新文章" })).toBeVisible();
  await expect(page.getByTestId("empty-site")).toContainText("这里还没有文章。");
});

test("published posts appear on / and /posts in the reader's language, drafts never", async ({
  page,
  context,
  baseURL,
  serverDb,
}) => {
  await createPost(serverDb.db, {
    slug: "hello-inkwell",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-20T08:00:00.000Z",
    translations: [
      { locale: "en", title: "Hello, Inkwell", summary: "The first post." },
      { locale: "zh", title: "你好，墨水", summary: "第一篇文章。" },
    ],
  });
  await createPost(serverDb.db, {
    slug: "only-english",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-21T08:00:00.000Z",
    translations: [{ locale: "en", title: "Only in English" }],
  });
  await createPost(serverDb.db, {
    slug: "a-draft",
    authorId: null,
    status: "draft",
    publishedAt: null,
    translations: [{ locale: "en", title: "Unfinished draft" }],
  });

  for (const path of ["/", "/posts"]) {
    await page.goto(path);
    const items = page.getByRole("listitem").filter({ has: page.getByRole("article") });
    await expect(items).toHaveCount(2);
    await expect(items.nth(0).getByRole("heading")).toHaveText("Only in English");
    await expect(items.nth(1).getByRole("heading")).toHaveText("Hello, Inkwell");
    await expect(items.nth(1)).toContainText("The first post.");
    await expect(items.nth(1).locator("time")).toHaveAttribute("datetime", "2026-11-20T08:00:00.000Z");
    await expect(page.getByText("Unfinished draft")).toHaveCount(0);
  }

  await context.addCookies([{ name: "locale", value: "zh", url: baseURL ?? "" }]);
  await page.goto("/");
  const items = page.getByRole("listitem").filter({ has: page.getByRole("article") });
  await expect(items.nth(1).getByRole("heading")).toHaveText("你好，墨水");
  // The English-only post is shown with a language label and its own lang attribute.
  await expect(items.nth(0)).toContainText("英文");
  await expect(items.nth(0).getByRole("article")).toHaveAttribute("lang", "en-US");
});

test("a signed-in reader navigates after hydration without a full reload", async ({ page }) => {
  await signedInUser(page, "clientnav");
  await page.goto("/");
  await page.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 42;
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All blogs" }).click();
  await expect(page).toHaveURL(/\/posts$/);
  await expect(page.getByRole("heading", { level: 1, name: "All posts" })).toBeVisible();
  // Same document: the marker set before the click survives client-side navigation.
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
});

test("an anonymous reader gets finished documents without React, and links load the next one", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
  await page.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 42;
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All blogs" }).click();
  await expect(page).toHaveURL(/\/posts$/);
  await expect(page.getByRole("heading", { level: 1, name: "All posts" })).toBeVisible();
  // A new document: the marker is gone; the only script either page loaded is the reader script.
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBeUndefined();
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) expect(script).toMatch(/^\/assets\/reader-[\w-]+\.js$/);
});

test("the skip link moves keyboard focus to the main content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});
