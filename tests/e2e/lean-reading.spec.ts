import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// Anonymous readers' reading pages are finished documents without React (decision 024):
// the journeys work with JavaScript off, and with it on the reader script adds the rest.

const run = Date.now().toString(36);

test("reading journeys work with JavaScript disabled, in English and Chinese", async ({
  browser,
  baseURL,
  serverDb,
}) => {
  const id = await createPost(serverDb.db, {
    slug: `lean-${run}`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-22T08:00:00.000Z",
    translations: [
      { locale: "en", title: `Lean reading ${run}`, bodyHtml: "<p>Plain words.</p>" },
      { locale: "zh", title: `轻量阅读 ${run}`, bodyHtml: "<p>朴素的文字。</p>" },
    ],
  });
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  try {
    const page = await context.newPage();
    for (const [prefix, allBlogs, title, body, search, empty] of [
      ["/en", "All blogs", `Lean reading ${run}`, "Plain words.", "Search", "No posts match “zzqx”."],
      ["/zh", "全部博客", `轻量阅读 ${run}`, "朴素的文字。", "搜索", "没有与“zzqx”匹配的文章。"],
    ] as const) {
      await page.goto(prefix);
      await expect(
        page.getByRole("navigation", { name: /Main|主导航/ }).getByRole("link", { name: allBlogs }),
      ).toBeVisible();
      await page.goto(`${prefix}/posts/page/1`);
      await page.getByRole("link", { name: title }).first().click();
      await expect(page).toHaveURL(new RegExp(`/posts/detail/${id}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.locator("#post-body")).toContainText(body);
      // The search form is a GET form: it works as it is.
      await page.goto(`${prefix}/search`);
      await page.getByRole("main").getByRole("searchbox").fill("zzqx");
      await page.getByRole("main").getByRole("button", { name: search, exact: true }).click();
      await expect(page).toHaveURL(/\/search\?q=zzqx$/);
      await expect(page.getByRole("status")).toHaveText(empty);
    }
  } finally {
    await context.close();
  }
});

test("an anonymous page has no React but the reader script, and Speculation Rules with the nonce", async ({ page }) => {
  const response = await page.goto("/zh");
  const nonce = /'nonce-([^']+)'/.exec(response?.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce).toBeTruthy();
  const rules = page.locator('script[type="speculationrules"]');
  await expect(rules).toHaveCount(1);
  const parsed = JSON.parse((await rules.textContent()) ?? "") as { prefetch: unknown[]; prerender: unknown[] };
  expect(parsed.prefetch.length).toBeGreaterThan(0);
  expect(parsed.prerender.length).toBeGreaterThan(0);
  const reader = page.locator('script[src^="/assets/reader-"]');
  await expect(reader).toHaveAttribute("defer", "");
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
  expect(await page.locator('link[rel="modulepreload"], script[type="module"]').count()).toBe(0);
  // No inline handlers anywhere in the document.
  const html = (await response?.text()) ?? "";
  expect(html).not.toMatch(/\son[a-z]+="/);
  // The reader script works in Chinese too: the theme toggle and the menu.
  await page.setViewportSize({ width: 375, height: 700 });
  const toggle = page.getByRole("button", { name: "深色主题" });
  const pressed = await toggle.getAttribute("aria-pressed");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", pressed === "true" ? "false" : "true");
  await page.getByRole("button", { name: "打开菜单" }).click();
  await expect(page.getByRole("button", { name: "关闭菜单" })).toHaveAttribute("aria-expanded", "true");
});

test("a signed-in reader still gets the hydrated app on the same pages", async ({ page }) => {
  await signedInUser(page, "leanapp");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(await page.locator('script[src^="/assets/reader-"]').count()).toBe(0);
  expect(await page.locator('script[type="speculationrules"]').count()).toBe(0);
});

test("the server's flash message closes with its button, or by itself after 5 s", async ({ page }) => {
  // The page's clock stands still unless the test moves it: on a slow machine more than 5 s of
  // real time can pass between the answer and the click, and the message would be gone already.
  const start = Date.now();
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1_000);
  const signOutByForm = async () => {
    await signedInUser(page, "leanflash");
    await page.goto("/account");
    // A plain form post (as without React): the answer is a new, lean document with the message.
    await page.evaluate(() => document.querySelector<HTMLFormElement>('form[action="/logout"]')?.submit());
    await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  };
  await signOutByForm();
  const message = page.getByTestId("flash-message");
  await expect(message).toContainText("You have been signed out.");
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
  await message.getByRole("button", { name: "Close" }).click();
  await expect(message).toHaveCount(0);

  await signOutByForm();
  await expect(message).toContainText("You have been signed out.");
  await page.mouse.move(0, 600);
  await page.clock.runFor(4_000);
  await expect(message).toBeVisible();
  await page.clock.runFor(1_500);
  await expect(message).toHaveCount(0);
});
