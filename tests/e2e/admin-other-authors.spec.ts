import type { Page } from "@playwright/test";
import { createEditorPost } from "../../app/server/posts/post-editor.server.ts";
import { insertUser } from "../setup/fixtures-db.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// The owner corrects a post somebody else wrote (a demo or imported author, who never signs
// in), from the admin's post list, in each language (English at 1280 px, Chinese on a 390 px
// phone): readers see the correction, under the same byline (issue 46, decision 028).

const UI = {
  en: {
    title: "Title",
    tab: "English",
    save: "Save changes",
    update: "Update",
    confirmUpdate: "Update now",
    pendingSaved: "Your changes were saved. Readers do not see them until you press Update.",
    updated: "The post was updated. Readers see your changes now.",
    byline: (name: string) => `By ${name}`,
    keeps: (name: string) => `Written by ${name}. Your changes keep this byline.`,
  },
  zh: {
    title: "标题",
    tab: "中文",
    save: "保存修改",
    update: "更新",
    confirmUpdate: "立即更新",
    pendingSaved: "修改已保存。按“更新”之前读者看不到这些修改。",
    updated: "文章已更新，读者现在能看到你的修改。",
    byline: (name: string) => `作者：${name}`,
    keeps: (name: string) => `作者：${name}。你的修改不会改变署名。`,
  },
} as const;

/** The post ids this file made, removed when it is done (other files count posts). */
const made: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (made.length > 0) await serverDb.db.deleteFrom("posts").where("id", "in", made).execute();
});

async function useLanguage(page: Page, locale: "en" | "zh", baseURL: string): Promise<void> {
  await page.context().addCookies([{ name: "locale", value: locale, url: baseURL }]);
}

for (const locale of ["en", "zh"] as const) {
  test(`the owner corrects another author's live post from the post list (${locale})`, async ({
    page,
    browser,
    serverDb,
    baseURL,
  }) => {
    const ui = UI[locale];
    const stamp = `${locale}-${Date.now()}`;
    const authorName = locale === "en" ? `Demo Author ${stamp}` : `示例作者 ${stamp}`;
    const authorId = await insertUser(serverDb.db, { email: `demo-author-${stamp}@example.test`, name: authorName });
    const titles = { en: `Imported post ${stamp}`, zh: `导入的文章 ${stamp}` };
    const created = await createEditorPost(serverDb.db, authorId, {
      slug: `imported-${stamp}`,
      categoryId: null,
      tags: [],
      coverImageUrl: null,
      coverAlt: "",
      status: "published",
      publishAt: null,
      translations: (["en", "zh"] as const).map((l) => ({
        locale: l,
        title: titles[l],
        summary: "",
        bodyMarkdown: l === "en" ? "Words with a tpyo." : "有错字的文字。",
        seoTitle: null,
        seoDescription: null,
      })),
    });
    if (!created.ok) throw new Error("could not create the post");
    made.push(created.id);
    const corrected = locale === "en" ? `Imported post, corrected ${stamp}` : `导入的文章（已更正）${stamp}`;

    await page.setViewportSize(locale === "en" ? { width: 1280, height: 900 } : { width: 390, height: 844 });
    await signedInAdmin(page, serverDb.db, `owner-${locale}`);
    await useLanguage(page, locale, baseURL ?? "");

    // The list shows the author by name, and the title opens the editor.
    await page.goto(`/admin/blog?q=${encodeURIComponent(`imported-${stamp}`)}`);
    const row = page.getByRole("row").filter({ hasText: titles[locale] });
    await expect(row).toContainText(authorName);
    await expect(row).not.toContainText("@example.test");
    await row.getByRole("link", { name: titles[locale], exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/posts/edit/${created.id}$`));
    await expect(page.getByTestId("other-author")).toHaveText(ui.keeps(authorName));

    const panel = page.getByRole("tabpanel", { name: ui.tab });
    if (locale === "zh") await page.getByRole("tab", { name: ui.tab }).click();
    const title = panel.getByLabel(ui.title, { exact: true });
    await expect(title).toHaveValue(titles[locale]);
    await title.fill(corrected);
    await page.getByRole("button", { name: ui.save, exact: true }).click();
    await expect(page.getByText(ui.pendingSaved).first()).toBeVisible();
    await page.getByRole("button", { name: ui.update, exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: ui.confirmUpdate }).click();
    await expect(page.getByText(ui.updated)).toBeVisible();

    // A reader sees the correction under the same byline.
    const reader = await browser.newContext();
    try {
      const anonymous = await reader.newPage();
      await anonymous.goto(`/${locale}/posts/detail/${created.id}`);
      await expect(anonymous.getByRole("heading", { level: 1 })).toHaveText(corrected);
      await expect(anonymous.getByRole("main")).toContainText(ui.byline(authorName));
    } finally {
      await reader.close();
    }
    const stored = await serverDb.db
      .selectFrom("posts")
      .select("authorId")
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(stored.authorId).toBe(authorId);
  });
}
