import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { DB } from "../../app/server/db/db.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { renderPost } from "../../app/server/render/post-render.server.ts";
import { signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { createShowcasePost } from "./showcase-post.ts";

// How an article reads (issue 28): the demo's style-guide post, rendered as the editor
// renders on save, checked by its computed styles in both themes and at phone width.

// Other files share each server's database (home.spec.ts expects an empty blog): the
// file runs in one worker, in order, and removes its posts at the end.
test.describe.configure({ mode: "serial" });

let postId: Promise<string> | null = null;
const created: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (created.length) await serverDb.db.deleteFrom("posts").where("id", "in", created).execute();
  created.length = 0;
  postId = null;
});

/** The style-guide post, written once per server, in both languages. */
function showcase(db: DB): Promise<string> {
  postId ??= (async () => {
    const id = await createShowcasePost(db, "style-guide");
    created.push(id);
    return id;
  })();
  return postId;
}

/** The computed styles that matter, read in the page. */
function articleStyles(page: Page) {
  return page.evaluate(() => {
    const body = document.getElementById("post-body");
    if (!body) throw new Error("no post body");
    const style = (selector: string) => {
      const el = body.querySelector(selector);
      if (!el) throw new Error(`no ${selector}`);
      return getComputedStyle(el);
    };
    const font = (selector: string) => {
      const s = style(selector);
      return { size: Number.parseFloat(s.fontSize), weight: Number(s.fontWeight), marginTop: s.marginTop };
    };
    const cell = style("td");
    const header = style("th");
    return {
      p: font("p"),
      h2: font("h2"),
      h3: font("h3"),
      h4: font("h4"),
      cell: {
        padding: [cell.paddingTop, cell.paddingRight, cell.paddingBottom, cell.paddingLeft].map(Number.parseFloat),
        rule: [cell.borderBottomWidth, cell.borderBottomStyle],
      },
      headerWeight: Number(header.fontWeight),
      tableInScrollBox: getComputedStyle(body.querySelector("table")?.parentElement ?? body).overflowX,
      pageBackground: getComputedStyle(document.body).backgroundColor,
      codeBackground: style(".code-block pre").backgroundColor,
      codeBoxBackground: style(".code-block").backgroundColor,
      codeLabel: getComputedStyle(body.querySelector(".code-block") ?? body, "::before").content,
    };
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`an article's headings, tables and code read well in the ${theme} theme`, async ({
    page,
    context,
    serverDb,
  }) => {
    const id = await showcase(serverDb.db);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/en/posts/detail/${id}`);
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);

    const s = await articleStyles(page);
    for (const level of ["h2", "h3", "h4"] as const) {
      const h = s[level];
      expect(h.size > s.p.size || h.weight > s.p.weight, `${level} stands out from body text`).toBe(true);
      expect(h.weight, `${level} is bold`).toBeGreaterThanOrEqual(600);
      expect(Number.parseFloat(h.marginTop), `${level} has space above`).toBeGreaterThan(12);
    }
    expect(s.h2.size).toBeGreaterThan(s.h3.size);
    expect(s.h3.size).toBeGreaterThan(s.h4.size);
    for (const side of s.cell.padding) expect(side).toBeGreaterThan(4);
    expect(s.cell.rule).toEqual(["1px", "solid"]);
    expect(s.headerWeight).toBeGreaterThanOrEqual(600);
    expect(s.tableInScrollBox).toBe("auto");
    expect(s.codeBackground).not.toBe(s.pageBackground);
    expect(s.codeBoxBackground).not.toBe(s.pageBackground);
    expect(s.codeLabel).toBe('"ts"');

    // A contents list (the post has more than three headings), and axe has nothing to say.
    await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();
    const axe = await new AxeBuilder({ page }).include("article").analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

    // The copy button, from the keyboard: the code lands on the clipboard and "Copied" is announced.
    const block = page.locator(".code-block").first();
    const copy = block.locator("button.code-copy");
    await expect(copy).toHaveAccessibleName("Copy");
    await copy.focus();
    await page.keyboard.press("Enter");
    await expect(block.getByRole("status")).toHaveText("Copied");
    await expect(copy).toHaveText("Copied");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await block.locator("pre").textContent());
    expect(copied).toContain("export function totalWeight(");

    // At phone width the page itself never scrolls sideways: the table and the code do.
    await page.setViewportSize({ width: 390, height: 800 });
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      view: document.documentElement.clientWidth,
      table: (() => {
        const box = document.querySelector("#post-body .table-scroll");
        return box ? box.scrollWidth > box.clientWidth : false;
      })(),
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    expect(widths.table, "the wide table scrolls in its own box").toBe(true);
  });
}

test("the copy button works without React, and the Chinese version is labelled in Chinese", async ({
  browser,
  baseURL,
  serverDb,
}) => {
  const id = await showcase(serverDb.db);
  // A context of its own: the fixtures' one waits for hydration, which never comes here.
  const context = await browser.newContext({ baseURL });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  // An anonymous reader's post page has no React: the reader script alone makes the button work.
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`/zh/posts/detail/${id}`);
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/reader-[\w-]+\.js$/)]);
  const block = page.locator(".code-block").nth(1);
  await block.getByRole("button", { name: "复制" }).click();
  await expect(block.getByRole("status")).toHaveText("已复制");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("npm run cli -- seed --demo && npm start");
  await expect(page.locator("#post-body figure figcaption")).toHaveText("本博客的默认配图，下面带着图注");
  await context.close();
});

test("a signed-in reader's copy button works from the inline script, compiled from the same module", async ({
  page,
  context,
  serverDb,
}) => {
  const id = await showcase(serverDb.db);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signedInUser(page, "copyapp");
  await page.goto(`/en/posts/detail/${id}`);
  // The app, not the reader script: the copy code is the inline script's.
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(await page.locator('script[src^="/assets/reader-"]').count()).toBe(0);
  const block = page.locator(".code-block").nth(1);
  await block.getByRole("button", { name: "Copy" }).click();
  await expect(block.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("npm run cli -- seed --demo && npm start");
});

test("the Chinese search button stays on one line at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/zh/search");
  const button = page.getByRole("button", { name: "搜索", exact: true });
  const lines = await button.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);
  const box = await button.boundingBox();
  expect(box?.height).toBeLessThan(48);
});

test("the 404 page says its message once and offers search and the latest posts, in Chinese", async ({
  page,
  serverDb,
}) => {
  await showcase(serverDb.db);
  const response = await page.goto("/zh/no/such/article");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("error-message")).toHaveText("页面不存在：/zh/no/such/article");
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(page.locator("main").getByText("页面不存在")).toHaveCount(1);
  const latest = page.getByRole("region", { name: "最新文章" }).getByRole("link");
  expect(await latest.count()).toBeGreaterThan(0);
  for (const href of await latest.evaluateAll((links) => links.map((a) => a.getAttribute("href")))) {
    expect(href).toMatch(/^\/zh\/posts\/detail\/\w+$/);
  }
  const search = page.getByRole("search");
  await search.getByLabel("搜索文章").fill("配方");
  await search.getByRole("button", { name: "搜索" }).click();
  await expect(page).toHaveURL(/\/zh\/search\?q=%E9%85%8D%E6%96%B9/);
  await expect(page.getByRole("heading", { level: 1, name: "搜索" })).toBeVisible();
});

test("a post with fewer than three headings shows no contents list", async ({ page, serverDb }) => {
  const markdown = "## One\n\nText.\n\n## Two\n\nMore text.\n";
  const out = await renderPost(markdown, "en");
  const id = await createPost(serverDb.db, {
    slug: `two-headings-${Date.now().toString(36)}`,
    authorId: null,
    status: "published",
    publishedAt: "2024-01-01T00:00:00.000Z",
    translations: [
      {
        locale: "en",
        title: "Two headings",
        summary: "",
        bodyMarkdown: markdown,
        bodyHtml: out.html,
        tocJson: JSON.stringify(out.toc),
      },
    ],
  });
  created.push(id);
  await page.goto(`/en/posts/detail/${id}`);
  await expect(page.locator("#post-body h2")).toHaveCount(2);
  await expect(page.getByRole("navigation", { name: "Table of contents" })).toHaveCount(0);
});
