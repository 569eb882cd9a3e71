import { countContactMessages } from "../../app/server/site/contact.server.ts";
import { DEFAULT_SETTINGS, updateSiteSettings } from "../../app/server/site/site-settings.server.ts";
import { expect, test } from "./fixtures.ts";
import { mailTo } from "./mail.ts";

test("About and Privacy show their content in each language, from the footer links", async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "About" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "About" })).toBeVisible();
  await expect(page.getByText("This is a personal blog, written in English and Chinese.")).toBeVisible();
  await expect(page).toHaveTitle("About · Inkwell");

  await footer.getByRole("link", { name: "Privacy policy" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "What this blog stores" })).toBeVisible();

  await page.goto("/zh/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "隐私政策" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "本博客保存哪些信息" })).toBeVisible();
  await expect(page).toHaveTitle("隐私政策 · 墨水博客");
});

test("the contact form checks its fields, stores the message and mails the admins", async ({ page, serverDb }) => {
  await page.goto("/contact");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Enter your name.")).toBeVisible();
  await expect(page.getByText("Write a message.")).toBeVisible();

  const before = await countContactMessages(serverDb.db);
  const started = Date.now();
  await page.getByLabel("Name", { exact: true }).fill("Grace");
  await page.getByLabel("Your e-mail").fill("grace@example.test");
  await page.getByLabel("Message").fill("Hello! I enjoyed the post about compilers.\nBcc: victim@example.test");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("status")).toHaveText("Thank you! Your message was sent.");
  expect(await countContactMessages(serverDb.db)).toBe(before + 1);

  // admin@example.test is an admin of the test server (ADMIN_EMAILS).
  const mail = await mailTo("admin@example.test", /Message from Grace/, started);
  expect(mail.text).toContain("grace@example.test");
  expect(mail.text).toContain("I enjoyed the post about compilers.");
  // Text from the form never becomes a mail header.
  expect(mail.to).toEqual(["admin@example.test"]);
});

test("a message with the honeypot filled is answered the same and dropped", async ({ page, serverDb }) => {
  const before = await countContactMessages(serverDb.db);
  await page.goto("/contact");
  await page.getByLabel("Name", { exact: true }).fill("Bot");
  await page.getByLabel("Your e-mail").fill("bot@example.test");
  await page.getByLabel("Message").fill("Buy cheap things at our shop today");
  await page.locator('input[name="website"]').fill("https://spam.example", { force: true });
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("status")).toHaveText("Thank you! Your message was sent.");
  expect(await countContactMessages(serverDb.db)).toBe(before);
});

test("site settings change the name, footer text and social links without a restart", async ({ page, serverDb }) => {
  try {
    await updateSiteSettings(serverDb.db, {
      siteName: { en: "Grace's notes", zh: "格蕾丝的笔记" },
      aboutText: { en: "Compilers and tea.", zh: "编译器与茶。" },
      socialLinks: { github: "https://github.com/grace", x: "", weibo: "", zhihu: "" },
      copyright: { en: "Text under CC BY 4.0", zh: "" },
    });
    await page.goto("/");
    await expect(page).toHaveTitle("Grace's notes");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Grace's notes" }),
    ).toBeVisible();
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByText("Compilers and tea.")).toBeVisible();
    await expect(footer.getByRole("link", { name: "GitHub" })).toHaveAttribute("href", "https://github.com/grace");
    // Empty links are not shown at all.
    await expect(footer.getByRole("link", { name: "Weibo" })).toHaveCount(0);
    await expect(footer.getByText("Text under CC BY 4.0")).toBeVisible();
    await page.goto("/zh");
    await expect(page).toHaveTitle("格蕾丝的笔记");
    await expect(
      page.getByRole("contentinfo").getByText(`© ${new Date().getUTCFullYear()} 格蕾丝的笔记`),
    ).toBeVisible();
  } finally {
    await updateSiteSettings(serverDb.db, DEFAULT_SETTINGS);
  }
});

test("the post list follows the posts-per-page setting", async ({ page, serverDb }) => {
  const { createPost } = await import("../../app/server/posts/posts.server.ts");
  for (let i = 1; i <= 3; i++) {
    await createPost(serverDb.db, {
      slug: `per-page-${i}-${Date.now()}`,
      authorId: null,
      status: "published",
      publishedAt: new Date(Date.UTC(2020, 0, i)).toISOString(),
      translations: [{ locale: "en", title: `Per page ${i}` }],
    });
  }
  try {
    await updateSiteSettings(serverDb.db, { postsPerPage: 1 });
    await page.goto("/posts/page/1");
    await expect(page.getByRole("main").getByRole("article")).toHaveCount(1);
    await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/\/posts\/page\/2$/);
    await expect(page.getByRole("main").getByRole("article")).toHaveCount(1);
  } finally {
    await updateSiteSettings(serverDb.db, DEFAULT_SETTINGS);
  }
});

test("a site setting shows the language buttons to every reader", async ({ page, serverDb }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Read this site in Chinese" })).toHaveCount(0);
  try {
    await updateSiteSettings(serverDb.db, { languageButtonsForEveryone: true });
    await page.goto("/en/about");
    await page.getByRole("button", { name: "Read this site in Chinese" }).click();
    await expect(page).toHaveURL(/\/zh\/about$/);
    await expect(page.getByRole("heading", { level: 1, name: "关于" })).toBeVisible();
  } finally {
    await updateSiteSettings(serverDb.db, DEFAULT_SETTINGS);
  }
});
