import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import type { OpenDatabase } from "../../app/server/db/db.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { axeFindings } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

// The writing screen (issue 47) at 1440 px, in both languages: Save in sight, the length of
// the version being written, the formatting toolbar and a shortcut, the preview beside the
// text, an image on a paragraph of its own, and the publish dialog's counts, which must be
// the database's.

const writers: string[] = [];
const subscriberIds: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (subscriberIds.length > 0) await serverDb.db.deleteFrom("subscribers").where("id", "in", subscriberIds).execute();
  if (writers.length === 0) return;
  const authors = serverDb.db.selectFrom("users").select("id").where("email", "in", writers);
  await serverDb.db.deleteFrom("media").where("uploadedBy", "in", authors).execute();
  await serverDb.db.deleteFrom("posts").where("authorId", "in", authors).execute();
});

const UI = {
  en: {
    tab: { en: "English", zh: "中文" },
    body: "Body (Markdown)",
    title: "Title",
    saveDraft: "Save draft",
    publish: "Publish…",
    bold: "Bold",
    sideBySide: "Side by side",
    settings: "Settings",
    altLabel: "Describe the image for people who cannot see it (alt text)",
    insert: "Insert image",
    words: "5 words",
    chars: "7 characters",
    dialog: "Publish this post?",
    cancel: "Cancel",
    mailed: (n: number, en: number, zh: number) =>
      `It is e-mailed to ${n} subscribers: ${en} in English, ${zh} in Chinese.`,
    federationOff: "It is not shared on the Fediverse: federation is off.",
  },
  zh: {
    tab: { en: "English", zh: "中文" },
    body: "正文（Markdown）",
    title: "标题",
    saveDraft: "保存草稿",
    publish: "发布…",
    bold: "粗体",
    sideBySide: "并排预览",
    settings: "设置",
    altLabel: "为看不到图片的读者描述它（替代文字）",
    insert: "插入图片",
    words: "5 词",
    chars: "7 字",
    dialog: "发布这篇文章？",
    cancel: "取消",
    mailed: (n: number, en: number, zh: number) => `将通过邮件发送给 ${n} 位订阅者：英文 ${en}，中文 ${zh}。`,
    federationOff: "不会分享到联邦宇宙：联邦功能未开启。",
  },
} as const;

/** The body editor of a language tab, once CodeMirror has taken over the textarea. */
async function bodyOf(page: Page, tab: string, name: string): Promise<Locator> {
  const panel = page.getByRole("tabpanel", { name: tab });
  await expect(panel.locator(".cm-content")).toBeVisible();
  return panel.getByRole("textbox", { name });
}

/** What CodeMirror holds, line breaks included. */
async function textOf(page: Page, field: string): Promise<string> {
  return page.locator(`textarea[name=${field}]`).inputValue();
}

async function addSubscribers(db: OpenDatabase["db"], tag: string) {
  const at = new Date().toISOString();
  const rows = [
    { languages: "en", locale: "en" },
    { languages: "zh", locale: "zh" },
    { languages: "both", locale: "zh" },
  ] as const;
  for (const [i, row] of rows.entries()) {
    const id = `ws${tag}${i}${Date.now().toString(36)}`.slice(0, 20);
    subscriberIds.push(id);
    await db
      .insertInto("subscribers")
      .values({
        id,
        email: `${id}@example.test`,
        ...row,
        status: "confirmed",
        confirmTokenHash: `c-${id}`,
        unsubscribeTokenHash: `u-${id}`,
        confirmedAt: at,
        unsubscribedAt: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
  }
}

/** Who a bilingual post's newsletter would reach, counted straight from the table. */
async function expectedMailed(db: OpenDatabase["db"]) {
  const rows = await db
    .selectFrom("subscribers")
    .select(["languages", "locale"])
    .where("status", "=", "confirmed")
    .where("bouncedAt", "is", null)
    .execute();
  const en = rows.filter((r) => r.languages === "en" || (r.languages === "both" && r.locale === "en")).length;
  const zh = rows.filter((r) => r.languages === "zh" || (r.languages === "both" && r.locale === "zh")).length;
  return { en, zh };
}

for (const locale of ["en", "zh"] as const) {
  test(`writing a post on the writing screen (${locale})`, async ({ page, serverDb }) => {
    const ui = UI[locale];
    writers.push(await signedInAdmin(page, serverDb.db, `writing-${locale}`));
    await addSubscribers(serverDb.db, locale);

    // Save is in sight without scrolling, at 1280 and 1440 px.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/${locale}/posts/createPost`);
    await expect(page.getByRole("button", { name: ui.saveDraft })).toBeInViewport();
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.getByRole("button", { name: ui.saveDraft })).toBeInViewport();
    await expect(page.getByRole("button", { name: ui.publish })).toBeInViewport();

    // English: words. (The Chinese screen opens on the Chinese tab.)
    await page.getByRole("tab", { name: ui.tab.en }).click();
    const english = page.getByRole("tabpanel", { name: ui.tab.en });
    await english.getByLabel(ui.title, { exact: true }).fill("Writing well");
    const enBody = await bodyOf(page, ui.tab.en, ui.body);
    await enBody.fill("Truly a well-known fact");
    await expect(page.getByTestId("word-count-value")).toHaveText(ui.words.replace("5", "4"));
    await enBody.press("End");
    await enBody.pressSequentially(" today");
    await expect(page.getByTestId("word-count-value")).toHaveText(ui.words);

    // The toolbar wraps the selection in Markdown; a shortcut does too.
    await enBody.press("Shift+Home");
    await page.getByRole("toolbar").getByRole("button", { name: ui.bold }).click();
    await expect.poll(() => textOf(page, "enBody")).toBe("**Truly a well-known fact today**");
    await enBody.press("End");
    await enBody.press("Enter");
    await enBody.press("Enter");
    await enBody.press("Control+i");
    await enBody.pressSequentially("leaning");
    await expect.poll(() => textOf(page, "enBody")).toBe("**Truly a well-known fact today**\n\n_leaning_");

    // The preview beside the text, rendered by the server.
    await page.getByRole("button", { name: ui.sideBySide }).click();
    const preview = page.getByTestId("markdown-preview");
    await expect(preview.locator("strong")).toHaveText("Truly a well-known fact today");
    await expect(preview.locator("em")).toHaveText("leaning");
    const textBox = await page.locator("[data-editor-for=enBody]").boundingBox();
    const previewBox = await preview.boundingBox();
    expect(previewBox && textBox && previewBox.x >= textBox.x + textBox.width).toBe(true);
    expect(previewBox && textBox && Math.abs(previewBox.y - textBox.y) < textBox.height).toBe(true);

    // An image after a quote goes on a paragraph of its own, after its description is asked.
    await enBody.fill("> A quote\n");
    await enBody.press("Control+End");
    await page.getByTestId("insert-image-enBody").setInputFiles({
      name: "red.png",
      mimeType: "image/png",
      buffer: await sharp({ create: { width: 40, height: 20, channels: 3, background: "#b02f2f" } })
        .png()
        .toBuffer(),
    });
    await page.getByLabel(ui.altLabel).fill("A red square");
    await page.getByRole("button", { name: ui.insert, exact: true }).click();
    await expect.poll(() => textOf(page, "enBody")).toMatch(/^> A quote\n\n!\[A red square\]\(\/media\/[^)\s]+\)\n$/);

    // Chinese: characters, and Latin words among them as words.
    await page.getByRole("tab", { name: ui.tab.zh }).click();
    const chinese = page.getByRole("tabpanel", { name: ui.tab.zh });
    await chinese.getByLabel(ui.title, { exact: true }).fill("写作");
    await (await bodyOf(page, ui.tab.zh, ui.body)).fill("我们用 React 写博客");
    await expect(page.getByTestId("word-count-value")).toHaveText(ui.chars);

    // Publishing first says what will happen, with the database's counts; Cancel keeps the draft.
    const mailed = await expectedMailed(serverDb.db);
    await page.getByRole("button", { name: ui.publish }).click();
    const dialog = page.getByRole("dialog", { name: ui.dialog });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("publish-mail")).toHaveText(ui.mailed(mailed.en + mailed.zh, mailed.en, mailed.zh));
    // This server's address is http: nothing is federated, whatever followers the table holds
    // (tests/e2e/publish-reach.spec.ts counts them on a blog that federates).
    await expect(dialog.getByTestId("publish-fedi")).toHaveText(ui.federationOff);
    expect(await axeFindings(page, { include: "[data-testid=publish-dialog]" })).toEqual([]);
    await dialog.getByRole("button", { name: ui.cancel }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/posts\/createPost$/);

    // The settings panel opens from the bar.
    await page.getByRole("button", { name: ui.settings, exact: true }).click();
    await expect(page.locator("#post-settings")).toBeVisible();
    expect(await axeFindings(page, { exclude: "[data-testid=site-header]" })).toEqual([]);
  });
}
