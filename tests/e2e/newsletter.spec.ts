import { createEditorPost } from "../../app/server/posts/post-editor.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { linkIn, mailTo, uniqueEmail } from "./mail.ts";

// The newsletter as a reader and an owner live it: subscribe in Chinese, confirm,
// the admin publishes a bilingual post with "Email this post to subscribers", the
// reader gets the Chinese version, and its one-click unsubscribe works.

const posts: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (posts.length > 0) await serverDb.db.deleteFrom("posts").where("id", "in", posts).execute();
});

test("a Chinese subscriber gets a new bilingual post in Chinese, and one click unsubscribes", async ({
  page,
  serverDb,
  request,
}) => {
  const reader = uniqueEmail("zh-news");
  const subscriber = () =>
    serverDb.db
      .selectFrom("subscribers")
      .select(["status", "languages"])
      .where("email", "=", reader)
      .executeTakeFirstOrThrow();

  // Subscribe on a Chinese page: the language choice defaults to the page's.
  await page.goto("/zh");
  const box = page.getByRole("contentinfo").getByRole("region", { name: "订阅" });
  await expect(box.getByLabel("语言")).toHaveValue("zh");
  const asked = Date.now();
  await box.getByLabel("电子邮件地址").fill(reader);
  await box.getByRole("button", { name: "订阅" }).click();
  await expect(box.getByRole("status")).toHaveText("谢谢！请查收邮件：我们已发送确认订阅的链接。");
  const confirmMail = await mailTo(reader, /确认订阅/, asked);
  await page.goto(linkIn(confirmMail, "/subscribe/confirm"));
  await page.getByRole("button", { name: "确认订阅" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("订阅已确认，谢谢！");
  expect(await subscriber()).toEqual({ status: "confirmed", languages: "zh" });

  // The owner publishes a post in both languages; the box is ticked for a new post.
  // The editor in English by address: the /zh pages above made Chinese the remembered language.
  await signedInAdmin(page, serverDb.db, "news-writer");
  await page.goto("/en/posts/createPost");
  const english = page.getByRole("tabpanel", { name: "English" });
  const marker = Date.now().toString(36);
  await english.getByLabel("Title", { exact: true }).fill(`Spring bread ${marker}`);
  await page.locator("[data-editor-bar]").getByRole("button", { name: "Settings" }).click();
  const settings = page.locator("#post-settings");
  await settings.getByRole("textbox", { name: "Summary" }).fill("What the oven taught me.");
  await page.getByRole("tab", { name: "中文" }).click();
  const chinese = page.getByRole("tabpanel", { name: "中文" });
  await chinese.getByLabel("Title", { exact: true }).fill(`春天的面包 ${marker}`);
  await settings.getByRole("textbox", { name: "Summary" }).fill("烤箱教会我的事。");
  const box2 = page.getByRole("checkbox", { name: "Email this post to subscribers" });
  await expect(box2).toBeChecked();
  // The publish dialog says who gets it, then the owner confirms.
  await page.getByRole("button", { name: "Publish…" }).click();
  const confirm = page.getByRole("dialog", { name: "Publish this post?" });
  await expect(confirm.getByTestId("publish-mail")).toContainText("It is e-mailed to");
  const published = Date.now();
  await confirm.getByRole("button", { name: "Publish now" }).click();
  await expect(page).toHaveURL(/\/posts\/edit\/[0-9a-z]{20}$/);
  posts.push(page.url().split("/").pop() ?? "");
  // Once live, the box is gone and the editor says it was mailed.
  await expect(page.getByText("This post was emailed to subscribers", { exact: false })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Email this post to subscribers" })).toHaveCount(0);

  // The reader's mail is the Chinese version, with a one-click unsubscribe.
  const mail = await mailTo(reader, new RegExp(`春天的面包 ${marker}`), published);
  expect(mail.html).toContain("烤箱教会我的事。");
  expect(mail.html).toContain("在网站上阅读");
  expect(mail.text).toContain("/zh/posts/detail/");
  expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const oneClick = /<(http[^>]+\/zh\/unsubscribe\?token=[^>]+)>/.exec(mail.headers["list-unsubscribe"] ?? "")?.[1];
  if (!oneClick) throw new Error(`no one-click link: ${mail.headers["list-unsubscribe"]}`);

  // The visible link's page offers the language too, in Chinese.
  await page.goto(linkIn(mail, "/unsubscribe"));
  await expect(page.getByRole("heading", { name: "更改语言" })).toBeVisible();
  await expect(page.getByRole("main").getByLabel("语言", { exact: true })).toHaveValue("zh");
  expect((await subscriber()).status).toBe("confirmed");

  // What a mail client does for RFC 8058: POST the header's URL, no cookie, no form token.
  const res = await request.post(oneClick, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(res.status()).toBe(200);
  expect((await subscriber()).status).toBe("unsubscribed");
  // Pressed again: still one unsubscribe.
  expect(
    (
      await request.post(oneClick, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        data: "List-Unsubscribe=One-Click",
      })
    ).status(),
  ).toBe(200);

  // Insights name the send, and the reader who left through its link (the admin in English:
  // the mail's /zh link made Chinese the remembered language).
  await page.goto("/en/admin/insights");
  const sent = page.getByTestId("insights-newsletter").getByRole("row", { name: new RegExp(`Spring bread ${marker}`) });
  await expect(sent.getByRole("cell").nth(2)).toHaveText("1");
});

test("a reader changes the language from the mail's link, in English", async ({ page, serverDb }) => {
  const reader = uniqueEmail("en-news");
  await page.goto("/en");
  const box = page.getByRole("contentinfo").getByRole("region", { name: "Newsletter" });
  await box.getByLabel("Language").selectOption("both");
  const asked = Date.now();
  await box.getByLabel("E-mail for new posts").fill(reader);
  await box.getByRole("button", { name: "Subscribe" }).click();
  const mail = await mailTo(reader, /Confirm your subscription/, asked);
  const row = () =>
    serverDb.db.selectFrom("subscribers").select(["languages"]).where("email", "=", reader).executeTakeFirstOrThrow();
  expect((await row()).languages).toBe("both");

  await page.goto(linkIn(mail, "/unsubscribe"));
  await expect(page.getByRole("heading", { name: "Change the language" })).toBeVisible();
  await page.getByRole("main").getByLabel("Language", { exact: true }).selectOption("en");
  await page.getByRole("button", { name: "Save language" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Saved. You will get new posts in: English.");
  expect((await row()).languages).toBe("en");
});

test("an admin sends a test of a draft to their own address", async ({ page, serverDb }) => {
  const admin = await signedInAdmin(page, serverDb.db, "news-tester");
  const author = await serverDb.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", admin)
    .executeTakeFirstOrThrow();
  const marker = Date.now().toString(36);
  const created = await createEditorPost(serverDb.db, author.id, {
    slug: "",
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "draft",
    publishAt: null,
    translations: [
      {
        locale: "en",
        title: `Draft to try ${marker}`,
        summary: "Not out yet.",
        bodyMarkdown: "Hello **subscribers**.",
        seoTitle: null,
        seoDescription: null,
      },
    ],
  });
  if (!created.ok) throw new Error("the draft was not created");
  posts.push(created.id);

  await page.goto("/admin/newsletter");
  const section = page.getByRole("region", { name: "Send a test" });
  await expect(section.getByText(admin, { exact: false })).toBeVisible();
  await section.getByLabel("Post").selectOption(created.id);
  await section.getByLabel("Version").selectOption("en");
  const asked = Date.now();
  await section.getByRole("button", { name: "Send a test to me" }).click();
  await expect(section.getByRole("status")).toHaveText(`A test of “Draft to try ${marker}” is on its way to ${admin}.`);
  const mail = await mailTo(admin, new RegExp(`\\[Test\\] Draft to try ${marker}`), asked);
  expect(mail.html).toContain("<strong");
  expect(mail.text).toContain("Not out yet.");
  // A test starts no send: the draft is still unsent.
  const sends = await serverDb.db.selectFrom("newsletterSends").select("id").where("postId", "=", created.id).execute();
  expect(sends).toHaveLength(0);
});
