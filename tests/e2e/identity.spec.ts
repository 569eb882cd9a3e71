import type { Page } from "@playwright/test";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { PASSWORD, signedInAdmin } from "./account-helpers.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";
import { linkIn, mailTo, uniqueEmail } from "./mail.ts";

// Issue 28: people choose the name the site shows (never a piece of their e-mail
// address), authors have a page and a feed, and their replies carry a badge.
test.setTimeout(ceiling(90_000));

const run = Date.now().toString(36);

/** Registers in Chinese with a display name, verifies from the (Chinese) mail and signs in. */
async function registerInChinese(page: Page, email: string, name: string): Promise<void> {
  await page.goto("/zh/register");
  // An empty name is refused with its own message, in Chinese.
  await page.getByLabel("邮箱").fill(email);
  await page.getByLabel("密码").fill(PASSWORD);
  await page.getByRole("button", { name: "创建账号" }).click();
  await expect(page.getByText("请输入显示名称。")).toBeVisible();
  await page.getByLabel("显示名称").fill(`  ${name}  `);
  await page.getByRole("button", { name: "创建账号" }).click();
  await expect(page.getByRole("status")).toContainText(email);
  const mail = await mailTo(email, /验证/);
  // The link has no language prefix (this browser has no language cookie): open it under /zh.
  const link = new URL(linkIn(mail, "/verify-email"));
  await page.goto(`/zh${link.pathname}${link.search}`);
  await page.getByRole("button", { name: "验证我的邮箱" }).click();
  await expect(page.getByRole("status")).toHaveText("邮箱已验证，现在可以登录了。");
  await page.goto("/zh/login");
  await page.getByLabel("邮箱").fill(email);
  await page.getByLabel("密码").fill(PASSWORD);
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByTestId("nav-user")).toHaveText(name);
}

test("a chosen name on comments, the author's page and feed, and the author's badge", async ({
  page,
  browser,
  baseURL,
  serverDb,
}) => {
  const db = serverDb.db;

  // The author: an admin who sets a name and a bio on the account page.
  const authorEmail = await signedInAdmin(page, db, "identity-author");
  const authorName = `Ada Quill ${run}`;
  await page.goto("/en/account");
  const profile = page.getByRole("region", { name: "Public profile" });
  await profile.getByLabel("Display name").fill(authorName);
  await profile.getByLabel("Short bio").fill("Writes about ink.");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByRole("status")).toHaveText("Your profile was saved.");
  const author = await db
    .selectFrom("users")
    .select(["id", "handle"])
    .where("email", "=", authorEmail)
    .executeTakeFirstOrThrow();
  if (!author.handle) throw new Error("the author has no handle");
  const title = `Ink and paper ${run}`;
  const postId = await createPost(db, {
    slug: `identity-${run}`,
    authorId: author.id,
    status: "published",
    publishedAt: "2025-04-04T04:04:04.000Z",
    translations: [{ locale: "en", title, summary: "About ink.", bodyHtml: "<p>Ink.</p>" }],
  });

  // A reader registers in Chinese and comments: their name, nothing of their address.
  const reader = await browser.newContext({ baseURL });
  const readerPage = await reader.newPage();
  const readerEmail = uniqueEmail(`identity-reader-${run}`);
  const readerName = `王小明${run}`;
  await registerInChinese(readerPage, readerEmail, readerName);
  await readerPage.goto(`/zh/posts/detail/${postId}`);
  await readerPage.getByLabel("你的评论").fill("写得真好。");
  await readerPage.getByRole("button", { name: "发表评论" }).click();
  const readerComment = readerPage.getByTestId("comment").filter({ hasText: "写得真好。" });
  await expect(readerComment).toContainText(readerName);
  const localPart = readerEmail.split("@")[0] ?? readerEmail;
  await expect(readerPage.locator("#comments")).not.toContainText(localPart);
  await expect(readerComment.getByTestId("author-badge")).toHaveCount(0);

  // The author replies: the reply carries the badge, in both languages.
  await page.goto(`/en/posts/detail/${postId}`);
  const thread = page.getByTestId("comment").filter({ hasText: "写得真好。" });
  await thread.getByText("Reply", { exact: true }).click();
  await thread.getByLabel("Your reply").fill("Thank you!");
  await thread.getByRole("button", { name: "Post reply" }).click();
  const reply = page.getByTestId("comment").filter({ hasText: "Thank you!" });
  await expect(reply.getByTestId("author-badge")).toHaveText("Author");
  await expect(reply).toContainText(authorName);
  await readerPage.goto(`/zh/posts/detail/${postId}`);
  await expect(
    readerPage.getByTestId("comment").filter({ hasText: "Thank you!" }).getByTestId("author-badge"),
  ).toHaveText("作者");

  // The byline links the author's page (rel=author), which lists the post and its feeds.
  await page.goto(`/en/posts/detail/${postId}`);
  // The byline ("By …"); the author card at the foot links to the same page ("More from …").
  const byline = page.getByRole("link", { name: `By ${authorName}` });
  await expect(byline).toHaveAttribute("rel", "author");
  await byline.click();
  await expect(page).toHaveURL(new RegExp(`/en/authors/${author.handle}$`));
  await expect(page.getByRole("heading", { level: 1, name: authorName })).toBeVisible();
  await expect(page.getByText("Writes about ink.")).toBeVisible();
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await expect(page.locator("main")).not.toContainText(authorEmail.split("@")[0] ?? authorEmail);

  const rss = await page.request.get(`/en/authors/${author.handle}/rss.xml`);
  expect(rss.status()).toBe(200);
  expect(rss.headers()["content-type"]).toContain("application/rss+xml");
  const rssText = await rss.text();
  expect(rssText).toContain(title);
  expect(rssText).toContain(authorName);
  const atom = await page.request.get(`/zh/authors/${author.handle}/atom.xml`);
  // The post has no Chinese version: the Chinese feed is there, and empty.
  expect(atom.status()).toBe(200);
  expect(await atom.text()).not.toContain(title);
  expect((await page.request.get("/en/authors/no-such-person")).status()).toBe(404);

  await reader.close();
});
