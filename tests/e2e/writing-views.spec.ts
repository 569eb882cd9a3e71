import type { Locator, Page } from "@playwright/test";
import { signedInAdmin } from "./account-helpers.ts";
import { axeFindings } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoSidewaysScroll } from "./layout-checks.ts";

// The writing screen's views (issue 47): the preview beside the text and the text scroll
// each other, both ways, without echoing back; below 1024 px the settings are a sheet over
// the text that takes the focus, keeps it, and gives it back when Escape or its button
// closes it, with nothing wider than a 390 px phone, in English and Chinese.

const writers: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (writers.length === 0) return;
  const authors = serverDb.db.selectFrom("users").select("id").where("email", "in", writers);
  await serverDb.db.deleteFrom("posts").where("authorId", "in", authors).execute();
});

/** Where a box is in its scroll range: 0 at the top, 1 at the bottom. */
function fraction(box: Locator): Promise<number> {
  return box.evaluate((el) => {
    const range = el.scrollHeight - el.clientHeight;
    return range > 0 ? el.scrollTop / range : 0;
  });
}

/** Resolves after the browser has drawn `n` more frames (scroll events fire once a frame). */
function frames(page: Page, n: number): Promise<void> {
  return page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
        step(count);
      }),
    n,
  );
}

/** Resolves once neither box has moved for three frames (a wheel's smooth scroll has ended). */
function settled(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const boxes = [
          document.querySelector("[data-editor-for=enBody] .cm-scroller"),
          document.querySelector("[data-testid=markdown-preview]"),
        ];
        const where = () => boxes.map((b) => b?.scrollTop ?? 0).join(",");
        let last = where();
        let still = 0;
        const step = () => {
          const now = where();
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 3) resolve();
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
  );
}

const LONG_BODY = Array.from(
  { length: 60 },
  (_, i) => `${i % 10 === 0 ? `## Part ${i / 10 + 1}\n\n` : ""}Paragraph ${i + 1}: a line of text that goes on.`,
).join("\n\n");

test("the preview beside the text and the text scroll each other, both ways (1440 px)", async ({ page, serverDb }) => {
  writers.push(await signedInAdmin(page, serverDb.db, "scroll-both"));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/en/posts/createPost");
  const english = page.getByRole("tabpanel", { name: "English" });
  await expect(english.locator(".cm-content")).toBeVisible();
  await english.getByRole("textbox", { name: "Body (Markdown)" }).fill(LONG_BODY);
  await page.getByRole("button", { name: "Side by side" }).click();
  const preview = page.getByTestId("markdown-preview");
  await expect(preview).toContainText("Paragraph 60:");
  const text = english.locator("[data-editor-for=enBody] .cm-scroller");
  for (const box of [text, preview]) {
    expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight + 200)).toBe(true);
  }

  // The writer scrolls the text: the preview follows.
  await text.hover();
  await page.mouse.wheel(0, 700);
  await expect.poll(() => fraction(text)).toBeGreaterThan(0.1);
  await expect.poll(async () => Math.abs((await fraction(preview)) - (await fraction(text)))).toBeLessThan(0.02);

  // The writer scrolls the preview, down to its end: the text follows, and the preview stays.
  await preview.hover();
  await page.mouse.wheel(0, 20_000);
  await expect.poll(() => fraction(preview)).toBeGreaterThan(0.99);
  await expect.poll(() => fraction(text)).toBeGreaterThan(0.99);
  // And back up a little: the text comes back with it.
  await preview.hover();
  await page.mouse.wheel(0, -900);
  await expect.poll(() => fraction(preview)).toBeLessThan(0.9);
  await expect.poll(async () => Math.abs((await fraction(preview)) - (await fraction(text)))).toBeLessThan(0.02);

  await settled(page);

  // One move of the preview scrolls each box once: the text's answering scroll is not taken
  // for the writer's and sent back to the preview (a loop that jitters or pins the preview).
  const counts = await page.evaluate(() => {
    const seen = { text: 0, preview: 0 };
    const textBox = document.querySelector("[data-editor-for=enBody] .cm-scroller");
    const previewBox = document.querySelector("[data-testid=markdown-preview]");
    textBox?.addEventListener("scroll", () => {
      seen.text += 1;
    });
    previewBox?.addEventListener("scroll", () => {
      seen.preview += 1;
    });
    (window as unknown as { scrollSeen: typeof seen }).scrollSeen = seen;
    if (previewBox) previewBox.scrollTop = Math.round((previewBox.scrollHeight - previewBox.clientHeight) * 0.3);
    return seen;
  });
  expect(counts).toEqual({ text: 0, preview: 0 });
  await expect.poll(() => fraction(text)).toBeLessThan(0.35);
  await frames(page, 5);
  expect(await page.evaluate(() => (window as unknown as { scrollSeen: unknown }).scrollSeen)).toEqual({
    text: 1,
    preview: 1,
  });
  expect(Math.abs((await fraction(preview)) - 0.3)).toBeLessThan(0.01);
  expect(Math.abs((await fraction(text)) - 0.3)).toBeLessThan(0.02);
});

const SHEET = {
  en: { settings: "Settings", close: "Close settings", title: "Title", tab: "English", slug: "Slug (web address)" },
  zh: { settings: "设置", close: "关闭设置", title: "标题", tab: "中文", slug: "别名（网址）" },
} as const;

for (const locale of ["en", "zh"] as const) {
  test(`below 1024 px the settings open as a sheet over the text (390 px, ${locale})`, async ({ page, serverDb }) => {
    const ui = SHEET[locale];
    writers.push(await signedInAdmin(page, serverDb.db, `sheet-${locale}`));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/${locale}/posts/createPost`);
    const title = page.getByRole("tabpanel", { name: ui.tab }).getByLabel(ui.title, { exact: true });
    await expect(page.getByRole("tabpanel", { name: ui.tab }).locator(".cm-content")).toBeVisible();
    await expectNoSidewaysScroll(page, "with the settings closed");
    const before = await title.boundingBox();

    // The bar's button opens the sheet, over the text, and the focus goes into it.
    const toggle = page.locator("[data-editor-bar]").getByRole("button", { name: ui.settings, exact: true });
    await toggle.click();
    const sheet = page.getByRole("dialog", { name: ui.settings });
    await expect(sheet).toBeVisible();
    const close = sheet.getByRole("button", { name: ui.close });
    await expect(close).toBeFocused();
    expect(await title.boundingBox(), "the text stays where it was").toEqual(before);
    const box = await page.locator("#post-settings").boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await expectNoSidewaysScroll(page, "with the settings open");
    expect(await axeFindings(page, { exclude: "[data-testid=site-header]" })).toEqual([]);

    // Tab stays in the sheet: back from its first control is its last one.
    await page.keyboard.press("Shift+Tab");
    await expect(sheet.locator(":focus")).toHaveCount(1);
    await expect(close).not.toBeFocused();
    await page.keyboard.press("Tab");
    await expect(close).toBeFocused();

    // A field of the sheet works, and Escape closes it and gives the focus back.
    await sheet.getByLabel(ui.slug).fill("on-a-phone");
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");

    // Its close button does the same; the field kept its value.
    await toggle.click();
    await expect(close).toBeFocused();
    await expect(sheet.getByLabel(ui.slug)).toHaveValue("on-a-phone");
    await close.click();
    await expect(sheet).toBeHidden();
    await expect(toggle).toBeFocused();
    await expectNoSidewaysScroll(page, "after closing the settings");
  });
}

// Each format writes plain Markdown, from its toolbar button or its shortcut (the Chinese
// screen, a Chinese line selected): writing-screen.spec.ts drives bold and italic in both.
const FORMATS: ReadonlyArray<{ how: { key: string } | { button: string }; result: string | RegExp }> = [
  { how: { key: "Control+Alt+h" }, result: "## 文字" },
  { how: { key: "Control+k" }, result: "[文字]()" },
  { how: { key: "Control+e" }, result: "`文字`" },
  { how: { key: "Control+Shift+8" }, result: "- 文字" },
  { how: { button: "引用" }, result: "> 文字" },
  { how: { button: "有序列表" }, result: "1. 文字" },
  { how: { button: "代码块" }, result: "```\n文字\n```" },
  { how: { button: "表格" }, result: /^文字\n\n\| {2}\| {2}\|\n\| --- \| --- \|\n\| {2}\| {2}\|\n?$/ },
];

test("the toolbar's buttons and shortcuts write plain Markdown (zh)", async ({ page, serverDb }) => {
  writers.push(await signedInAdmin(page, serverDb.db, "formats-zh"));
  await page.goto("/zh/posts/createPost");
  const chinese = page.getByRole("tabpanel", { name: "中文" });
  await expect(chinese.locator(".cm-content")).toBeVisible();
  const body = chinese.getByRole("textbox", { name: "正文（Markdown）" });
  const toolbar = page.getByRole("toolbar", { name: "格式" });
  for (const { how, result } of FORMATS) {
    await body.fill("文字");
    await body.press("Control+End");
    await body.press("Shift+Home");
    if ("key" in how) await body.press(how.key);
    else await toolbar.getByRole("button", { name: how.button, exact: true }).click();
    const stored = () => page.locator("textarea[name=zhBody]").inputValue();
    if (typeof result === "string") await expect.poll(stored, JSON.stringify(how)).toBe(result);
    else await expect.poll(stored, JSON.stringify(how)).toMatch(result);
  }
  // The toolbar is one tab stop, its buttons reached with the arrow keys.
  await toolbar.getByRole("button", { name: "粗体", exact: true }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(toolbar.getByRole("button", { name: "斜体", exact: true })).toBeFocused();
});
