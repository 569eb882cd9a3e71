import AxeBuilder from "@axe-core/playwright";
import { nowIso } from "../../app/server/db/db.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { DEFAULT_SETTINGS, updateSiteSettings } from "../../app/server/site/site-settings.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });

// That readers and visitors cannot see or change this page (its blocks included) is checked
// with every other admin page: tests/e2e/admin-access.spec.ts in a browser, and route by
// route, forged posts included, in tests/security/admin-access.test.ts.

const followerIds: string[] = [];

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: the settings go back to the defaults, our followers go.
  await updateSiteSettings(serverDb.db, { fediverse: DEFAULT_SETTINGS.fediverse });
  if (followerIds.length > 0) {
    await serverDb.db.deleteFrom("federationFollowers").where("id", "in", followerIds).execute();
  }
});

test("an admin sees why federation is off, the handles and the followers, in English and Chinese", async ({
  page,
  serverDb,
}) => {
  const { db } = serverDb;
  // 55 followers of the Chinese account: two pages of 50.
  const base = Date.UTC(2026, 0, 1);
  const rows = Array.from({ length: 55 }, (_, i) => {
    const id = newId();
    followerIds.push(id);
    return {
      id,
      actor: "zh" as const,
      followerUri: `https://social.example/users/reader${i}`,
      inboxUrl: `https://social.example/users/reader${i}/inbox`,
      sharedInboxUrl: "https://social.example/inbox",
      handle: `@reader${i}@social.example`,
      name: `Reader ${i}`,
      server: "social.example",
      createdAt: new Date(base + i * 60_000).toISOString(),
    };
  });
  await db.insertInto("federationFollowers").values(rows).execute();

  await signedInAdmin(page, db, "fedi-admin");
  await page.goto("/admin/fediverse");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fediverse");
  const status = page.getByTestId("federation-status");
  // The e2e server's PUBLIC_URL is http://127.0.0.1:…: off, and the page says why.
  await expect(status).toContainText("Federation is off");
  await expect(status).toContainText("does not start with https://");
  const host = new URL(page.url()).host;
  await expect(page.getByTestId("handle-zh")).toHaveText(`@blog@${host}`);
  await expect(page.getByTestId("handle-en")).toHaveText(`@blog-en@${host}`);
  await expect(page.getByTestId("followers-count-zh")).toHaveText("55 followers");
  await expect(page.getByTestId("followers-count-en")).toHaveText("0 followers");
  // Newest first, 50 a page.
  await expect(page.getByRole("link", { name: "@reader54@social.example" })).toBeVisible();
  await expect(page.getByRole("link", { name: "@reader4@social.example", exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/zhPage=2/);
  await expect(page.getByRole("link", { name: "@reader4@social.example", exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // A handle that cannot be one is refused with the field's message; nothing is saved.
  await page.goto("/admin/fediverse");
  await page.getByLabel("Handle of the English account").fill("not a handle!");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Use 1 to 30 letters, digits, dots, dashes or underscores")).toBeVisible();
  // The switch and new handles are saved.
  await page.getByLabel("Handle of the English account").fill("notes");
  await page.getByLabel("Handle of the Chinese account").fill("biji");
  await page.getByLabel("Federate this blog").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("handle-en")).toHaveText(`@notes@${host}`);
  await expect(page.getByTestId("handle-zh")).toHaveText(`@biji@${host}`);
  await expect(page.getByLabel("Federate this blog")).toBeChecked();
  // Still off: the address is not https, whatever the switch says.
  await expect(status).toContainText("Federation is off");

  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto("/admin/fediverse");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("联邦宇宙");
  await expect(page.getByTestId("federation-status")).toContainText("联邦已关闭");
  await expect(page.getByTestId("federation-status")).toContainText("不是以 https:// 开头");
  await expect(page.getByTestId("followers-count-zh")).toHaveText("55 位关注者");
  await expect(page.getByRole("heading", { name: "中文账号" })).toBeVisible();
  await page.context().clearCookies({ name: "locale" });
});

test("an admin moderates a reply from the Fediverse, blocks its author and a server, and lifts the blocks", async ({
  page,
  serverDb,
}) => {
  test.slow();
  const { db } = serverDb;
  const tag = `fedi${Date.now().toString(36)}`;
  const actorUri = `https://remote.example/users/${tag}`;
  const postId = await createPost(db, {
    slug: `${tag}-post`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-02T00:00:00.000Z",
    translations: [{ locale: "en", title: `${tag} Discussed` }],
  });
  const at = nowIso();
  await db
    .insertInto("federationRemoteActors")
    .values({
      uri: actorUri,
      url: `https://remote.example/@${tag}`,
      handle: `@${tag}@remote.example`,
      name: "Carol Remote",
      avatarUrl: "https://remote.example/avatar.png",
      server: "remote.example",
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  const commentId = newId();
  await db
    .insertInto("comments")
    .values({
      id: commentId,
      postId,
      authorId: null,
      parentId: null,
      bodyMarkdown: `${tag} hello from afar`,
      bodyHtml: `<p>${tag} hello from afar</p>`,
      status: "pending",
      guestName: "Carol Remote",
      remoteNoteUri: `https://remote.example/users/${tag}/statuses/1`,
      remoteActorUri: actorUri,
      remoteUrl: `https://remote.example/@${tag}/1`,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  const cleanup = async () => {
    await db.deleteFrom("federationBlocks").where("value", "in", [actorUri, "spam.example"]).execute();
    await db.deleteFrom("posts").where("id", "=", postId).execute();
    await db.deleteFrom("federationRemoteActors").where("uri", "=", actorUri).execute();
  };

  try {
    await signedInAdmin(page, db, "fedi-blocker");
    // The moderation queue shows the reply with its Fediverse handle; approved, readers see it.
    await page.goto(`/admin/comments?q=${tag}`);
    const author = page.getByTestId("remote-author");
    await expect(author).toContainText(`@${tag}@remote.example`);
    await expect(author).toContainText("(Fediverse)");
    await page.getByRole("button", { name: new RegExp(`^Approve.*${tag}`) }).click();
    await expect(page.getByText(`${tag} hello from afar`)).toHaveCount(0);
    const reader = await page.context().browser()?.newContext();
    if (!reader) throw new Error("no browser");
    const readerPage = await reader.newPage();
    await readerPage.goto(new URL(`/en/posts/detail/${postId}`, page.url()).href);
    const comment = readerPage.getByTestId("comment");
    await expect(comment).toContainText(`${tag} hello from afar`);
    await expect(comment).toContainText("Carol Remote");
    await expect(comment.getByTestId("remote-handle")).toHaveText(`@${tag}@remote.example`);
    await expect(comment.getByRole("link", { name: "View on the Fediverse" })).toHaveAttribute(
      "href",
      `https://remote.example/@${tag}/1`,
    );
    // No remote avatar: readers' browsers never fetch from the author's server.
    await expect(readerPage.locator('img[src*="remote.example"]')).toHaveCount(0);

    // Blocked from the moderation list: listed on the Fediverse page, hidden from readers.
    await page.goto(`/admin/comments?status=all&q=${tag}`);
    // The row shows one action; blocking waits in its "More" menu.
    const more = page
      .getByRole("row")
      .filter({ hasText: `${tag} hello from afar` })
      .locator("details");
    await more.locator("summary").click();
    await more.getByRole("button", { name: `Block @${tag}@remote.example on the Fediverse` }).click();
    await expect(page).toHaveURL(/\/admin\/fediverse/);
    const blocks = page.getByTestId("blocks");
    await expect(blocks).toContainText(actorUri);
    await readerPage.reload();
    await expect(readerPage.getByText(`${tag} hello from afar`)).toHaveCount(0);

    // A whole server: a domain that cannot be one is refused with the field's message.
    await page.getByLabel("Server to block").fill("https://spam.example/path");
    await page.getByRole("button", { name: "Block server" }).click();
    await expect(page.getByText("Enter a domain such as spam.example")).toBeVisible();
    await page.getByLabel("Server to block").fill("Spam.Example");
    await page.getByRole("button", { name: "Block server" }).click();
    await expect(blocks).toContainText("spam.example");
    // A follower blocked from its row is marked.
    await page.getByRole("button", { name: "Block @reader54@social.example" }).click();
    await expect(page.getByTestId("follower-blocked")).toHaveCount(1);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    // Lifted: the reply shows again.
    await page.getByRole("button", { name: `Unblock ${actorUri}` }).click();
    await expect(blocks).not.toContainText(actorUri);
    await page.getByRole("button", { name: "Unblock https://social.example/users/reader54" }).click();
    await expect(page.getByTestId("follower-blocked")).toHaveCount(0);
    await readerPage.reload();
    await expect(readerPage.getByTestId("comment")).toContainText(`${tag} hello from afar`);

    // Each block and unblock is in the audit log.
    const entries = await db
      .selectFrom("auditLog")
      .select(["action", "details"])
      .where("entityType", "=", "fediverseBlock")
      .where("details", "like", `%${tag}%`)
      .execute();
    expect(entries.map((e) => e.action).sort()).toEqual(["fediverse.block", "fediverse.unblock"]);

    // In Chinese: the block list and its button; the reader's page in Chinese counts nothing yet.
    await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
    await page.goto("/admin/fediverse");
    await expect(page.getByRole("heading", { name: "已屏蔽的账号和服务器" })).toBeVisible();
    await expect(blocks).toContainText("服务器");
    await page.getByRole("button", { name: "取消屏蔽 spam.example" }).click();
    await expect(page.getByText("目前没有屏蔽任何账号或服务器。")).toBeVisible();
    await readerPage.goto(new URL(`/zh/posts/detail/${postId}`, page.url()).href);
    await expect(readerPage.getByRole("link", { name: "在联邦宇宙中查看" })).toBeVisible();
    await page.context().clearCookies({ name: "locale" });
    await reader.close();
  } finally {
    await cleanup();
  }
});
