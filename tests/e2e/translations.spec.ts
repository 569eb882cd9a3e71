import type { Page } from "@playwright/test";
import { createEditorPost } from "../../app/server/posts/post-editor.server.ts";
import { DEFAULT_SETTINGS, updateSiteSettings } from "../../app/server/site/site-settings.server.ts";
import { login, signedInAdmin } from "./account-helpers.ts";
import { axeFindings, rulesFor } from "./axe.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// Translations that know when they are out of date (issue 47): an English edit marks the
// Chinese version in the editor's tab, the admin list and the post page, the editor shows
// what changed, readers are told when the site setting is on, and saving the Chinese
// version (in the Chinese admin) or "Mark as up to date" (without JavaScript) clears it.

const posts: string[] = [];

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: the setting goes back to its default, our posts go.
  await updateSiteSettings(serverDb.db, { translationNotice: DEFAULT_SETTINGS.translationNotice });
  if (posts.length > 0) await serverDb.db.deleteFrom("posts").where("id", "in", posts).execute();
});

const panel = (page: Page, name: string) => page.getByRole("tabpanel", { name });

/** Update on a live post: the bar's button opens the dialog that says what an update does; confirm it. */
async function update(page: Page, ui: "en" | "zh"): Promise<void> {
  const [button, dialog, confirm] =
    ui === "en" ? ["Update", "Update the live post?", "Update now"] : ["更新", "更新已发布的文章？", "立即更新"];
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.getByRole("dialog", { name: dialog }).getByRole("button", { name: confirm }).click();
}

/** Enough text under the last heading that it can be scrolled to the top of the window. */
const TAIL = Array.from({ length: 60 }, (_, i) => `第 ${i + 1} 行。`).join("\n\n");
const EN_BODY = "# Tea\n\nGreen tea is mild.\n\n## Brewing\n\nUse cool water.";
const ZH_BODY = `# 茶\n\n绿茶很温和。\n\n## 冲泡\n\n用凉一点的水。\n\n${TAIL}`;

test("an English edit marks the Chinese version out of date until it is saved or marked", async ({
  page,
  serverDb,
  browser,
}) => {
  // Three browsers (the owner, a reader, the owner without JavaScript), both languages.
  test.setTimeout(ceiling(120_000));
  const email = await signedInAdmin(page, serverDb.db, "translator");
  const owner = await serverDb.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const created = await createEditorPost(serverDb.db, owner.id, {
    slug: `bilingual-tea-${Date.now()}`,
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "published",
    publishAt: null,
    translations: [
      { locale: "en", title: "Tea", summary: "", bodyMarkdown: EN_BODY, seoTitle: null, seoDescription: null },
      { locale: "zh", title: "茶", summary: "", bodyMarkdown: ZH_BODY, seoTitle: null, seoDescription: null },
    ],
  });
  if (!created.ok) throw new Error("could not create the post");
  posts.push(created.id);
  const editPath = `/posts/edit/${created.id}`;
  const notice = "这篇译文写于英文版最近一次更新之前。";

  // The owner turns the readers' notice on (off by default).
  await page.goto("/admin/config");
  const setting = page.getByLabel("Tell readers when a translation is older than its source");
  await expect(setting).not.toBeChecked();
  await setting.check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(
    page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: "Saved." }).first(),
  ).toBeVisible();

  const reader = await browser.newContext();
  const plain = await browser.newContext({ javaScriptEnabled: false });
  try {
    // A reader's Chinese page, now in the render cache: nothing to say yet.
    const anonymous = await reader.newPage();
    await anonymous.goto(`/zh/posts/detail/${created.id}`);
    await expect(anonymous.locator("#post-title")).toHaveText("茶");
    await expect(anonymous.getByTestId("translation-notice")).toHaveCount(0);

    // The owner edits the English version and publishes the change.
    await page.goto(editPath);
    await expect(page.getByTestId("outdated-mark-zh")).toHaveCount(0);
    const enBody = panel(page, "English").getByRole("textbox", { name: "Body (Markdown)" });
    await expect(panel(page, "English").locator(".cm-content")).toBeVisible();
    await enBody.fill(EN_BODY.replace("Green tea is mild.", "Green tea is mild and sweet."));
    await update(page, "en");
    await expect(page.getByText("The post was updated. Readers see your changes now.")).toBeVisible();

    // The Chinese tab is marked, and the box says what changed in English, paragraph by paragraph.
    await expect(page.getByRole("tab", { name: "中文" })).toContainText("Out of date");
    await expect(page.getByRole("tab", { name: "English" })).not.toContainText("Out of date");
    const box = page.getByTestId("outdated-zh");
    await expect(box.getByRole("heading", { name: "The Chinese version is out of date" })).toBeVisible();
    await box.getByText("What changed in the English version since").click();
    const diff = page.getByTestId("outdated-diff-zh");
    await expect(diff.locator("ins")).toHaveText(/^\[added:\s*and sweet\s*\]$/);
    await expect(diff).toContainText("1 paragraph without changes");
    await expect(diff).toContainText("2 paragraphs without changes");
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      expect(await axeFindings(page, { include: "[data-testid=outdated-zh]", rules: rulesFor(theme) })).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // The admin list marks the row; the owner's view of the Chinese page says so too.
    await page.goto(`/admin/blog?q=${encodeURIComponent("bilingual-tea")}`);
    await expect(page.getByTestId("row-outdated-zh")).toHaveText("Chinese out of date");
    await expect(page.getByTestId("row-outdated-en")).toHaveCount(0);
    await page.goto(`/zh/posts/detail/${created.id}`);
    await expect(page.getByTestId("translation-notice")).toContainText(
      "已过时：英文版在此版本上次与它对齐之后有了改动。",
    );

    // The reader is told, in Chinese; the English page has nothing to say.
    await anonymous.reload();
    await expect(anonymous.getByTestId("translation-notice")).toHaveText(notice);
    await anonymous.goto(`/en/posts/detail/${created.id}`);
    await expect(anonymous.locator("#post-title")).toHaveText("Tea");
    await expect(anonymous.getByTestId("translation-notice")).toHaveCount(0);

    // In the Chinese admin: the English version beside the Chinese one, kept in step by heading.
    await page.goto(`/zh${editPath}`);
    await page.getByRole("tab", { name: "中文" }).click();
    const zhPanel = panel(page, "中文");
    await expect(zhPanel.locator(".cm-content")).toBeVisible();
    await zhPanel.getByRole("button", { name: "在旁边显示英文版" }).click();
    const beside = page.getByTestId("source-beside-zh");
    await expect(beside).toContainText("Green tea is mild and sweet.");
    await zhPanel
      .locator(".cm-line", { hasText: "## 冲泡" })
      .evaluate((line) => line.scrollIntoView({ block: "start" }));
    await expect(beside).toHaveAttribute("data-synced-section", "2");
    await expect(beside.locator('[data-section="2"]')).toContainText("## Brewing");
    // The panel beside (the editor's own fields are checked by the editor's specs).
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      expect(await axeFindings(page, { include: "[data-testid=source-beside-zh]", rules: rulesFor(theme) })).toEqual(
        [],
      );
    }
    await page.emulateMedia({ colorScheme: "light" });

    // Saving the Chinese version brings it in line: every mark goes.
    await zhPanel
      .getByRole("textbox", { name: "正文（Markdown）" })
      .fill(ZH_BODY.replace("绿茶很温和。", "绿茶很温和，也很甜。"));
    await update(page, "zh");
    await expect(page.getByText("文章已更新，读者现在能看到你的修改。")).toBeVisible();
    await expect(page.getByTestId("outdated-zh")).toHaveCount(0);
    await expect(page.getByRole("tab", { name: "中文" })).not.toContainText("已过时");
    await anonymous.goto(`/zh/posts/detail/${created.id}`);
    await expect(anonymous.getByRole("main")).toContainText("也很甜");
    await expect(anonymous.getByTestId("translation-notice")).toHaveCount(0);

    // Another English change (the title), in the English admin again, and the reader is told again.
    await page.goto(`/en${editPath}`);
    await panel(page, "English").getByLabel("Title", { exact: true }).fill("Tea, mostly green");
    await update(page, "en");
    await expect(page.getByText("The post was updated. Readers see your changes now.")).toBeVisible();
    await expect(page.getByRole("tab", { name: "中文" })).toContainText("Out of date");
    await anonymous.goto(`/zh/posts/detail/${created.id}`);
    await expect(anonymous.getByTestId("translation-notice")).toHaveText(notice);

    // "Mark as up to date", without JavaScript, in the Chinese admin: the reader's page follows.
    const noJs = await plain.newPage();
    await login(noJs, email);
    await noJs.goto(`/zh${editPath}`);
    await expect(noJs.getByTestId("outdated-zh")).toContainText("中文版已过时");
    await noJs.getByRole("button", { name: "将中文版标记为已是最新" }).click();
    await expect(noJs).toHaveURL(new RegExp(`${editPath}$`));
    await expect(noJs.getByText("已标记为最新。").first()).toBeVisible();
    await expect(noJs.getByTestId("outdated-zh")).toHaveCount(0);
    await anonymous.goto(`/zh/posts/detail/${created.id}`);
    await expect(anonymous.locator("#post-title")).toHaveText("茶");
    await expect(anonymous.getByTestId("translation-notice")).toHaveCount(0);
  } finally {
    await reader.close();
    await plain.close();
  }
});
