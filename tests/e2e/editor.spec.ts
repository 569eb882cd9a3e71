// Long on purpose: every journey of the one editor screen (write, autosave, recover,
// conflicts, images, both languages) shares its sign-in and post helpers here.
import type { Browser, Page } from "@playwright/test";
import type { OpenDatabase } from "../../app/server/db/db.server.ts";
import { createEditorPost } from "../../app/server/posts/post-editor.server.ts";
import { login, nameOf, signedInAdmin as sharedSignedInAdmin } from "./account-helpers.ts";
import { axeFindings, rulesFor } from "./axe.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// The admin's post editor in the browser: writing in both languages, drafts that
// stay private, two editors of one post, the admin-only rule, and the local draft.

/** The admins this file signs in: their posts are removed when the file is done. */
const writers: string[] = [];

/** A signed-in admin (a verified account added to `admins`); returns its e-mail. */
async function signedInAdmin(page: Page, serverDb: OpenDatabase, tag: string): Promise<string> {
  const email = await sharedSignedInAdmin(page, serverDb.db, tag);
  writers.push(email);
  return email;
}

test.afterAll(async ({ serverDb }) => {
  // Other files share this database (the home page's empty state, page counts).
  if (writers.length === 0) return;
  const authors = serverDb.db.selectFrom("users").select("id").where("email", "in", writers);
  await serverDb.db.deleteFrom("posts").where("authorId", "in", authors).execute();
});

async function userId(serverDb: OpenDatabase, email: string): Promise<string> {
  const row = await serverDb.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

const panel = (page: Page, name: "English" | "中文") => page.getByRole("tabpanel", { name });

/** Opens the settings panel from the writing screen's bar (issue 47). */
async function openSettings(page: Page) {
  await page.locator("[data-editor-bar]").getByRole("button", { name: "Settings" }).click();
  await expect(page.locator("#post-settings")).toBeVisible();
}

/** The settings panel's summary field of the language shown. */
const summary = (page: Page) => page.locator("#post-settings").getByRole("textbox", { name: "Summary" });

/** The body editor of a language tab, once CodeMirror has taken over the textarea. */
async function body(page: Page, name: "English" | "中文") {
  const editor = panel(page, name).getByRole("textbox", { name: "Body (Markdown)" });
  await expect(panel(page, name).locator(".cm-content")).toBeVisible();
  return editor;
}

test("an admin writes a post in both languages with a cover and tags, and it is listed in both", async ({
  page,
  serverDb,
}) => {
  await signedInAdmin(page, serverDb, "writer");
  await page.goto("/posts/createPost");
  await expect(page.getByRole("heading", { level: 1, name: "Create blog" })).toBeVisible();

  const english = panel(page, "English");
  await english.getByLabel("Title", { exact: true }).fill("Writing in two languages");
  await openSettings(page);
  await summary(page).fill("How the editor works.");
  await (await body(page, "English")).fill("## Why\n\nBecause **both** readers matter.");
  // The live preview beside the text shows what the server renders.
  await page.getByRole("button", { name: "Side by side" }).click();
  await expect(page.getByTestId("markdown-preview").locator("h2")).toHaveText("Why");
  await expect(page.getByTestId("markdown-preview").locator("strong")).toHaveText("both");

  const chineseTab = page.getByRole("tab", { name: "中文" });
  await chineseTab.click();
  await expect(chineseTab).toHaveAttribute("aria-selected", "true");
  const chinese = panel(page, "中文");
  await chinese.getByLabel("Title", { exact: true }).fill("用两种语言写作");
  await (await body(page, "中文")).fill("## 为什么\n\n因为两种读者都重要。");

  await page.getByLabel("Tags").fill("Editor e2e, 测试");
  await page.getByLabel("Cover image URL").fill("/social.jpg");
  await page.getByLabel("Cover image description (alt text)").fill("A fountain pen");
  // Publishing says what will happen first.
  await page.getByRole("button", { name: "Publish…" }).click();
  await page.getByRole("dialog", { name: "Publish this post?" }).getByRole("button", { name: "Publish now" }).click();

  await expect(page).toHaveURL(/\/posts\/edit\/[0-9a-z]{20}$/);
  await expect(page.getByText("The post was created.")).toBeVisible();
  const id = page.url().split("/").pop() ?? "";
  await expect(page.getByRole("link", { name: "View post" })).toHaveAttribute("href", `/posts/detail/${id}`);

  const stored = await serverDb.db
    .selectFrom("posts")
    .select(["slug", "status", "coverImageUrl", "coverAlt", "publishedAt"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  expect(stored).toMatchObject({
    slug: "writing-in-two-languages",
    status: "published",
    coverImageUrl: "/social.jpg",
    coverAlt: "A fountain pen",
  });
  expect(stored.publishedAt).not.toBeNull();
  const tags = await serverDb.db
    .selectFrom("postTags")
    .innerJoin("tags", "tags.id", "postTags.tagId")
    .select("tags.nameEn")
    .where("postTags.postId", "=", id)
    .execute();
  expect(tags.map((t) => t.nameEn).sort()).toEqual(["Editor e2e", "测试"]);
  const html = await serverDb.db
    .selectFrom("postTranslations")
    .select(["locale", "bodyHtml"])
    .where("postId", "=", id)
    .orderBy("locale")
    .execute();
  expect(html.map((r) => r.locale)).toEqual(["en", "zh"]);
  expect(html[0]?.bodyHtml).toContain("<strong>both</strong>");

  // The edit page shows what was saved.
  await expect(panel(page, "English").getByLabel("Title", { exact: true })).toHaveValue("Writing in two languages");
  await expect(page.getByLabel("Tags")).toHaveValue(/Editor e2e/);

  await page.goto("/posts/page/1");
  await expect(page.getByRole("heading", { name: "Writing in two languages" })).toBeVisible();
  await page.goto("/zh/posts/page/1");
  await expect(page.getByRole("heading", { name: "用两种语言写作" })).toBeVisible();

  // The detail page, in each language, with the cover and the tags.
  await page.goto(`/en/posts/detail/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Writing in two languages");
  await expect(page.getByRole("img", { name: "A fountain pen" })).toHaveAttribute("src", "/social.jpg");
  await expect(page.getByRole("main").getByRole("link", { name: /Editor e2e/ })).toBeVisible();
  await expect(page.getByRole("main").locator("strong")).toHaveText("both");
  await page.goto(`/zh/posts/detail/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("用两种语言写作");
  await expect(page.getByRole("main").getByRole("link", { name: /测试/ })).toBeVisible();

  // The /zh pages above made Chinese the remembered language: ask for English by address.
  await page.goto("/en/posts/myPosts");
  const row = page.getByRole("row").filter({ hasText: "Writing in two languages" });
  await expect(row.getByTestId("status-badge")).toHaveText("Published");
  await expect(row.getByRole("link", { name: "Edit “Writing in two languages”" })).toHaveAttribute(
    "href",
    `/en/posts/edit/${id}`,
  );
});

test("a draft stays off the public list for signed-out visitors", async ({ page, serverDb, browser }) => {
  await signedInAdmin(page, serverDb, "drafter");
  await page.goto("/posts/createPost");
  await panel(page, "English").getByLabel("Title", { exact: true }).fill("A private draft");
  await (await body(page, "English")).fill("Not ready yet.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/posts\/edit\//);
  const editPath = new URL(page.url()).pathname;

  await page.goto("/posts/myPosts?status=draft");
  await expect(page.getByRole("row").filter({ hasText: "A private draft" }).getByTestId("status-badge")).toHaveText(
    "Draft",
  );

  const visitor = await browser.newContext();
  try {
    const anonymous = await visitor.newPage();
    for (const path of ["/posts/page/1", "/zh/posts/page/1", "/"]) {
      expect((await anonymous.goto(path))?.status()).toBe(200);
      await expect(anonymous.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(anonymous.getByText("A private draft")).toHaveCount(0);
    }
    // The editor itself sends visitors to the login page.
    await anonymous.goto(editPath);
    await expect(anonymous).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(editPath)}`));
  } finally {
    await visitor.close();
  }
});

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, email);
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
  return page;
}

test("two browsers edit one post: the second save shows both versions and keeps its text", async ({
  page,
  serverDb,
  browser,
}) => {
  // Two browsers, two sign-ins and four saves: more than one ordinary test's time.
  test.setTimeout(ceiling(60_000));
  const email = await signedInAdmin(page, serverDb, "twice");
  const created = await createEditorPost(serverDb.db, await userId(serverDb, email), {
    slug: "edited-twice",
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "draft",
    publishAt: null,
    translations: [
      {
        locale: "en",
        title: "Original title",
        summary: "",
        bodyMarkdown: "Original body.",
        seoTitle: null,
        seoDescription: null,
      },
    ],
  });
  if (!created.ok) throw new Error("could not create the post");
  const path = `/posts/edit/${created.id}`;

  const second = await signedInPage(browser, email);
  const secondErrors: string[] = [];
  second.on("pageerror", (error) => secondErrors.push(error.message));
  second.on("console", (msg) => {
    // 4xx answers (the 409 itself) are expected; anything else is not.
    if (msg.type() === "error" && !/status of 4\d\d/.test(msg.text())) secondErrors.push(msg.text());
  });
  try {
    await page.goto(path);
    await second.goto(path);

    // The first browser saves.
    await panel(page, "English").getByLabel("Title", { exact: true }).fill("Title from the first browser");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Your changes were saved.")).toBeVisible();

    // The second browser, still at the old version, saves over it.
    await panel(second, "English").getByLabel("Title", { exact: true }).fill("Title from the second browser");
    await (await body(second, "English")).fill("Second browser's body.");
    await second.getByRole("button", { name: "Save" }).click();

    const conflict = second.getByTestId("conflict");
    await expect(
      conflict.getByRole("heading", { name: "This post was saved elsewhere while you were editing" }),
    ).toBeVisible();
    await expect(conflict.getByTestId("conflict-yours-en")).toContainText("Title from the second browser");
    await expect(conflict.getByTestId("conflict-yours-en")).toContainText("Second browser's body.");
    await expect(conflict.getByTestId("conflict-theirs-en")).toContainText("Title from the first browser");
    await expect(conflict.getByTestId("conflict-theirs-en")).toContainText("Original body.");
    // Nothing typed is lost: the form still holds the second browser's text.
    await expect(panel(second, "English").getByLabel("Title", { exact: true })).toHaveValue(
      "Title from the second browser",
    );
    await expect(panel(second, "English").locator(".cm-content")).toHaveText("Second browser's body.");
    const stored = await serverDb.db
      .selectFrom("postTranslations")
      .select("title")
      .where("postId", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(stored.title).toBe("Title from the first browser");

    await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
    await expect(second.getByText("Your changes were saved.")).toBeVisible();
    await expect(second.getByTestId("conflict")).toHaveCount(0);
    const overwritten = await serverDb.db
      .selectFrom("posts")
      .innerJoin("postTranslations", "postTranslations.postId", "posts.id")
      .select(["title", "bodyMarkdown", "version"])
      .where("posts.id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(overwritten).toMatchObject({
      title: "Title from the second browser",
      bodyMarkdown: "Second browser's body.",
      version: 3,
    });

    // The first browser, now behind, discards its edit and loads the saved version.
    await panel(page, "English").getByLabel("Title", { exact: true }).fill("A late edit");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("conflict").getByRole("link", { name: "Discard mine and load theirs" }).click();
    await expect(panel(page, "English").getByLabel("Title", { exact: true })).toHaveValue(
      "Title from the second browser",
    );
    await expect(page.getByTestId("conflict")).toHaveCount(0);
    expect(secondErrors).toEqual([]);
  } finally {
    await second.context().close();
  }
});

test("a scheduled post goes live by itself when its time comes", async ({ page, serverDb }) => {
  // The server publishes due posts every 15 s. The post is written due tomorrow, its "not
  // yet" state checked, and only then is its time moved into the past, as if the day had
  // passed: no check races the scheduler however slow the machine is.
  test.setTimeout(ceiling(90_000));
  const email = await signedInAdmin(page, serverDb, "scheduler");
  const created = await createEditorPost(serverDb.db, await userId(serverDb, email), {
    slug: "goes-live-soon",
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "scheduled",
    publishAt: new Date(Date.now() + 86_400_000).toISOString(),
    translations: [
      {
        locale: "en",
        title: "Scheduled for later",
        summary: "",
        bodyMarkdown: "",
        seoTitle: null,
        seoDescription: null,
      },
    ],
  });
  if (!created.ok) throw new Error("could not create the post");
  await page.goto("/posts/page/1");
  await expect(page.getByRole("heading", { name: "Scheduled for later" })).toHaveCount(0);
  await page.goto("/posts/myPosts");
  await expect(page.getByRole("row").filter({ hasText: "Scheduled for later" }).getByTestId("status-badge")).toHaveText(
    "Scheduled",
  );
  await serverDb.db
    .updateTable("posts")
    .set({ publishedAt: new Date(Date.now() - 1_000).toISOString() })
    .where("id", "=", created.id)
    .execute();
  await expect
    .poll(
      async () => {
        await page.goto("/posts/page/1");
        return page.getByRole("heading", { name: "Scheduled for later" }).count();
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe(1);
});

test("unsaved text survives a reload and is offered back; leaving asks first", async ({ page, serverDb }) => {
  await signedInAdmin(page, serverDb, "reloader");
  await page.goto("/posts/createPost");
  await panel(page, "English").getByLabel("Title", { exact: true }).fill("Text I must not lose");
  await (await body(page, "English")).fill("A paragraph typed before the reload.");
  await expect(page.getByTestId("kept-locally")).toContainText("Changes kept in this browser");

  // Leaving through a link asks first (and staying keeps everything).
  await page.getByRole("link", { name: "Back to my blogs" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/posts\/createPost$/);

  // The browser's own prompt guards a reload; accept it.
  page.on("dialog", (d) => void d.accept());
  await page.reload();
  await expect(panel(page, "English").getByLabel("Title", { exact: true })).toHaveValue("");
  await page.getByRole("button", { name: /^Restore unsaved draft from / }).click();
  await expect(panel(page, "English").getByLabel("Title", { exact: true })).toHaveValue("Text I must not lose");
  await expect(panel(page, "English").locator(".cm-content")).toHaveText("A paragraph typed before the reload.");

  // Saving clears the local copy: the edit page offers nothing.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/posts\/edit\//);
  await expect(page.getByText("The post was created.")).toBeVisible();
  await page.reload();
  await expect(panel(page, "English").getByLabel("Title", { exact: true })).toHaveValue("Text I must not lose");
  await expect(page.getByRole("button", { name: /^Restore unsaved draft/ })).toHaveCount(0);
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("inkwell:editor-draft:"))),
  ).toEqual([]);
});

test("errors are shown per field and mark their language tab; the tabs work from the keyboard", async ({
  page,
  serverDb,
}) => {
  const email = await signedInAdmin(page, serverDb, "checker");
  await createEditorPost(serverDb.db, await userId(serverDb, email), {
    slug: "already-taken",
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "draft",
    publishAt: null,
    translations: [
      { locale: "en", title: "Holder", summary: "", bodyMarkdown: "", seoTitle: null, seoDescription: null },
    ],
  });
  await page.goto("/posts/createPost");
  await panel(page, "English").getByLabel("Title", { exact: true }).fill("Checked before sending");

  // Arrow keys move between the tabs.
  const englishTab = page.getByRole("tab", { name: "English" });
  await englishTab.focus();
  await page.keyboard.press("ArrowRight");
  const chineseTab = page.getByRole("tab", { name: /中文/ });
  await expect(chineseTab).toBeFocused();
  await expect(chineseTab).toHaveAttribute("aria-selected", "true");
  await openSettings(page);
  await summary(page).fill("只有摘要，没有标题");
  await chineseTab.focus();
  await page.keyboard.press("Home");
  await expect(englishTab).toBeFocused();
  await expect(englishTab).toHaveAttribute("aria-selected", "true");

  // The browser checks first: the Chinese version has content but no title.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("tab", { name: "中文 (has errors)" })).toHaveAttribute("aria-selected", "true");
  const zhTitle = panel(page, "中文").getByLabel("Title", { exact: true });
  await expect(zhTitle).toBeFocused();
  await expect(zhTitle).toHaveAttribute("aria-invalid", "true");
  await expect(panel(page, "中文")).toContainText("This language version has content, so it needs a title.");
  await expect(page).toHaveURL(/\/posts\/createPost$/);

  // The server checks what only it can know: the slug is taken.
  await zhTitle.fill("中文标题");
  await page.getByLabel("Slug (web address)").fill("already-taken");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Another post already has this slug. Choose another one.")).toBeVisible();
  await expect(page.getByLabel("Slug (web address)")).toBeFocused();
  await expect(page.getByRole("tab", { name: "中文 (has errors)" })).toHaveCount(0);

  await page.getByLabel("Slug (web address)").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/posts\/edit\//);
  await expect(page.getByLabel("Slug (web address)")).toHaveValue("checked-before-sending");
});

test("the editor works without JavaScript: both languages show and the textarea is the body", async ({
  page,
  serverDb,
  browser,
}) => {
  const email = await signedInAdmin(page, serverDb, "nojs");
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const plain = await context.newPage();
    await login(plain, email);
    await plain.goto("/posts/createPost");
    // No tabs without JavaScript: every language version is on the page.
    await expect(plain.getByRole("tablist")).toBeHidden();
    await plain.locator("[name=enTitle]").fill("Written without JavaScript");
    await plain.locator("textarea[name=enBody]").fill("Plain *textarea* body.");
    await plain.locator("[name=zhTitle]").fill("没有脚本");
    await expect(plain.locator("[name=zhTitle]")).toBeVisible();
    // The settings panel's fields are simply in the form.
    await expect(plain.getByLabel("Tags")).toBeVisible();
    await expect(plain.locator("[name=zhSummary]")).toBeVisible();
    await plain.getByRole("button", { name: "Save" }).click();
    await expect(plain).toHaveURL(/\/posts\/edit\/[0-9a-z]{20}$/);
    const id = plain.url().split("/").pop() ?? "";
    const rows = await serverDb.db
      .selectFrom("postTranslations")
      .select(["locale", "title", "bodyMarkdown"])
      .where("postId", "=", id)
      .orderBy("locale")
      .execute();
    expect(rows).toEqual([
      { locale: "en", title: "Written without JavaScript", bodyMarkdown: "Plain *textarea* body." },
      { locale: "zh", title: "没有脚本", bodyMarkdown: "" },
    ]);
  } finally {
    await context.close();
  }
});

for (const theme of ["light", "dark"] as const) {
  test(`axe finds no violations on the editor pages (both languages, ${theme})`, async ({ page, serverDb }) => {
    test.setTimeout(ceiling(120_000));
    const email = await signedInAdmin(page, serverDb, `axe-${theme}`);
    const created = await createEditorPost(serverDb.db, await userId(serverDb, email), {
      slug: `checked-by-axe-${theme}`,
      categoryId: null,
      tags: ["a11y"],
      coverImageUrl: null,
      coverAlt: "",
      status: "scheduled",
      publishAt: new Date(Date.now() + 86_400_000).toISOString(),
      translations: [
        {
          locale: "en",
          title: "Checked by axe",
          summary: "",
          bodyMarkdown: "# Heading\n\n- a *list*\n- `code`\n\n[link](https://example.test)",
          seoTitle: null,
          seoDescription: null,
        },
      ],
    });
    if (!created.ok) throw new Error("could not create the post");
    await page.emulateMedia({ colorScheme: theme });
    for (const locale of ["en", "zh"] as const) {
      for (const path of ["/posts/createPost", `/posts/edit/${created.id}`, "/posts/myPosts"]) {
        await page.goto(`/${locale}${path}`);
        if (path !== "/posts/myPosts") await expect(page.locator(".cm-content").first()).toBeAttached();
        // The site header is not this page's: its admin-only language buttons are checked elsewhere.
        const summary = await axeFindings(page, { exclude: "[data-testid=site-header]", rules: rulesFor(theme) });
        expect(summary, `${locale} ${theme} ${path}`).toEqual([]);
        if (path !== "/posts/createPost") continue;
        // The writing screen's settings panel and publish dialog, open (issue 47).
        const bar = page.locator("[data-editor-bar]");
        const toggle = bar.getByRole("button", { name: locale === "en" ? "Settings" : "设置", exact: true });
        await toggle.click();
        await expect(page.locator("#post-settings")).toBeVisible();
        const withPanel = await axeFindings(page, { exclude: "[data-testid=site-header]", rules: rulesFor(theme) });
        expect(withPanel, `${locale} ${theme} ${path} settings`).toEqual([]);
        await toggle.click();
        await bar.getByRole("button", { name: locale === "en" ? "Publish…" : "发布…" }).click();
        await expect(page.getByTestId("publish-dialog")).toBeVisible();
        const withDialog = await axeFindings(page, { exclude: "[data-testid=site-header]", rules: rulesFor(theme) });
        expect(withDialog, `${locale} ${theme} ${path} publish dialog`).toEqual([]);
        await page.keyboard.press("Escape");
        await expect(page.getByTestId("publish-dialog")).toBeHidden();
      }
    }
  });
}
