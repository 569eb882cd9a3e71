// Long on purpose: the admin's content sections (posts, categories, tags, comments)
// share one signed-in admin and their fixtures.
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { createCategory } from "../../app/server/taxonomy/taxonomy.server.ts";
import { insertComment, insertUser } from "../setup/fixtures-db.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });

const TAG = `admin-content-${Date.now()}`;

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: the posts (and their comments) and the reader go.
  const { db } = serverDb;
  await db.deleteFrom("posts").where("slug", "like", `${TAG}-%`).execute();
  await db.deleteFrom("categories").where("slug", "=", TAG).execute();
  await db.deleteFrom("users").where("email", "like", `${TAG}-%`).execute();
});

async function expectNoAxeViolations(page: Page, path: string) {
  await page.goto(path);
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

/** A row's "More" menu, opened (a row shows one action, Edit; the rest wait behind "More"). */
async function moreOf(row: Locator, title: string): Promise<Locator> {
  const menu = row.locator("details");
  if (!(await menu.evaluate((el) => (el as HTMLDetailsElement).open)))
    await row.getByLabel(`More actions: “${title}”`).click();
  return menu;
}

/** A comment row's "More" menu, opened (its one action in sight is Approve, or Hide once approved). */
async function commentMore(row: Locator): Promise<Locator> {
  const menu = row.locator("details");
  if (!(await menu.evaluate((el) => (el as HTMLDetailsElement).open))) await menu.locator("summary").click();
  return menu;
}

test.describe("in a browser at UTC+8", () => {
  test.use({ timezoneId: "Asia/Shanghai" });

  test("an admin unpublishes, trashes, restores, schedules, features and deletes posts", async ({
    page,
    request,
    serverDb,
  }) => {
    test.slow();
    const { db } = serverDb;
    const adminEmail = await signedInAdmin(page, db, "content-admin");
    const categoryId = await createCategory(db, { slug: TAG, nameEn: "Content checks", nameZh: "内容检查" });
    const title = `${TAG} Alpha`;
    const alpha = await createPost(db, {
      slug: `${TAG}-alpha`,
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      categoryId,
      translations: [{ locale: "en", title }],
    });
    const betaTitle = `${TAG} Beta`;
    const beta = await createPost(db, {
      slug: `${TAG}-beta`,
      authorId: null,
      status: "draft",
      publishedAt: null,
      categoryId,
      translations: [{ locale: "en", title: betaTitle }],
    });
    const publicList = async () => (await (await request.get(`/categories/${TAG}`)).text()).includes(title);
    expect(await publicList()).toBe(true);

    await page.goto("/admin");
    await page.getByRole("link", { name: "Posts", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await page.getByLabel("Title or slug").fill(TAG);
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByText("2 posts")).toBeVisible();
    const alphaRow = page.getByRole("row", { name: new RegExp(`${title}`) });
    // Another author's post (here one without an author): admins edit every post (decision 028).
    await expect(alphaRow.getByRole("link", { name: `Edit: “${title}”` })).toHaveAttribute(
      "href",
      `/posts/edit/${alpha}`,
    );
    await expect(alphaRow.getByRole("link", { name: title, exact: true })).toHaveAttribute(
      "href",
      `/posts/edit/${alpha}`,
    );

    // Unpublish: it leaves the public list and its page.
    await (await moreOf(alphaRow, title)).getByRole("button", { name: `Unpublish: “${title}”` }).click();
    await expect(alphaRow.getByRole("cell", { name: "Draft", exact: true })).toBeVisible();
    const afterUnpublish = await db
      .selectFrom("posts")
      .select(["status", "version"])
      .where("id", "=", alpha)
      .executeTakeFirstOrThrow();
    expect(afterUnpublish).toMatchObject({ status: "draft" });
    expect(Number(afterUnpublish.version)).toBe(2);
    expect(await publicList()).toBe(false);
    expect((await request.get(`/posts/detail/${alpha}`)).status()).toBe(404);

    // Publish again (keeps its publish time), then filter by status.
    await (await moreOf(alphaRow, title)).getByRole("button", { name: `Publish: “${title}”` }).click();
    await expect(alphaRow.getByRole("cell", { name: "Published", exact: true })).toBeVisible();
    expect(await publicList()).toBe(true);
    await page.getByLabel("Status").selectOption("draft");
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByText("1 post", { exact: true })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(betaTitle) })).toBeVisible();
    await expect(alphaRow).toHaveCount(0);
    await page.getByLabel("Status").selectOption("");
    await page.getByRole("button", { name: "Apply", exact: true }).click();

    // Trash with confirmation, then restore from the trash.
    await (await moreOf(alphaRow, title)).getByRole("link", { name: `Move to trash: “${title}”` }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText(`Move “${title}” to the trash?`);
    await confirm.getByRole("button", { name: "Move to trash" }).click();
    await expect(alphaRow).toHaveCount(0);
    expect(await publicList()).toBe(false);
    await page.getByRole("link", { name: "Trash", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Trash" })).toBeVisible();
    await page.getByRole("button", { name: `Restore: “${title}”` }).click();
    await expect(alphaRow).toHaveCount(0);
    await page.getByRole("link", { name: "All posts" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Posts" })).toBeVisible();
    await page.getByLabel("Title or slug").fill(TAG);
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(alphaRow).toBeVisible();
    expect(await publicList()).toBe(true);

    // Feature.
    await (await moreOf(alphaRow, title)).getByRole("button", { name: `Feature: “${title}”` }).click();
    await expect(alphaRow.getByText("Featured", { exact: true })).toBeVisible();
    await expect((await moreOf(alphaRow, title)).getByRole("button", { name: `Unfeature: “${title}”` })).toBeVisible();

    // Schedule the draft: a past time is refused, a future one is kept.
    const betaRow = page.getByRole("row", { name: new RegExp(betaTitle) });
    await (await moreOf(betaRow, betaTitle)).getByRole("link", { name: `Schedule: “${betaTitle}”` }).click();
    const panel = page.getByRole("region", { name: `Schedule “${betaTitle}”` });
    await panel.getByLabel("Publish at").fill("2020-01-01T10:00");
    await panel.getByRole("button", { name: "Schedule" }).click();
    await expect(panel.getByText("Choose a time in the future.")).toBeVisible();
    await panel.getByLabel("Publish at").fill("2099-06-01T10:00");
    await panel.getByRole("button", { name: "Schedule" }).click();
    await expect(panel).toHaveCount(0);
    await expect(betaRow.getByRole("cell", { name: "Scheduled", exact: true })).toBeVisible();
    const scheduled = await db
      .selectFrom("posts")
      .select(["status", "publishedAt", "version"])
      .where("id", "=", beta)
      .executeTakeFirstOrThrow();
    expect(scheduled.status).toBe("scheduled");
    // Read in the browser's time zone (UTC+8).
    expect(scheduled.publishedAt).toBe("2099-06-01T02:00:00.000Z");
    expect(Number(scheduled.version)).toBe(2);

    // Delete forever, from the trash only.
    await (await moreOf(betaRow, betaTitle)).getByRole("link", { name: `Move to trash: “${betaTitle}”` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Move to trash" }).click();
    await expect(betaRow).toHaveCount(0);
    await page.goto(`/admin/blog?view=trash&q=${TAG}`);
    await (await moreOf(betaRow, betaTitle)).getByRole("link", { name: `Delete forever: “${betaTitle}”` }).click();
    await expect(page.getByRole("alertdialog")).toContainText(`Delete “${betaTitle}” forever`);
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete forever" }).click();
    await expect(page.getByText("The trash is empty.")).toBeVisible();
    expect(await db.selectFrom("posts").select("id").where("id", "=", beta).executeTakeFirst()).toBeUndefined();

    // Every change is in the audit log, by this admin.
    const entries = await db
      .selectFrom("auditLog")
      .select(["action", "actorEmail"])
      .where("entityId", "in", [alpha, beta])
      .orderBy("createdAt")
      .execute();
    expect(entries.map((e) => e.action)).toEqual([
      "post.unpublish",
      "post.publish",
      "post.trash",
      "post.restore",
      "post.feature",
      "post.schedule",
      "post.trash",
      "post.purge",
    ]);
    expect(new Set(entries.map((e) => e.actorEmail))).toEqual(new Set([adminEmail]));

    // The admin's own posts get an edit link.
    const ownTitle = `${TAG} Own`;
    const admin = await db.selectFrom("users").select("id").where("email", "=", adminEmail).executeTakeFirstOrThrow();
    const own = await createPost(db, {
      slug: `${TAG}-own`,
      authorId: admin.id,
      status: "draft",
      publishedAt: null,
      translations: [{ locale: "en", title: ownTitle }],
    });
    await page.goto(`/admin/blog?q=${TAG}&author=${admin.id}`);
    await expect(page.getByText("1 post", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: `Edit: “${ownTitle}”` })).toHaveAttribute("href", `/posts/edit/${own}`);

    for (const path of [`/admin/blog?q=${TAG}`, `/admin/blog?schedule=${alpha}`, `/admin/blog?confirmDelete=${alpha}`])
      await expectNoAxeViolations(page, path);
  });
});

test("an admin moderates comments one at a time and in bulk", async ({ page, request, serverDb, browser }) => {
  test.slow();
  const { db } = serverDb;
  await signedInAdmin(page, db, "content-mod");
  const readerEmail = `${TAG}-reader@example.test`;
  const reader = await insertUser(db, { email: readerEmail });
  const postId = await createPost(db, {
    slug: `${TAG}-discussed`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-02T00:00:00.000Z",
    translations: [{ locale: "en", title: `${TAG} Discussed` }],
  });
  const texts = ["first", "second", "third", "fourth"].map((w) => `${TAG} ${w} comment`);
  const ids: string[] = [];
  for (const [i, body] of texts.entries()) {
    const at = new Date(Date.UTC(2026, 10, 3, 0, 0, i)).toISOString();
    ids.push(await insertComment(db, { postId, authorId: reader, body, at }));
  }
  const [first, second, third, fourth] = texts as [string, string, string, string];
  const publicHtml = async () => (await request.get(`/posts/detail/${postId}`)).text();
  const statusOf = async (id: string | undefined) =>
    (
      await db
        .selectFrom("comments")
        .select("status")
        .where("id", "=", id ?? "")
        .executeTakeFirst()
    )?.status;
  expect(await publicHtml()).not.toContain(first);

  await page.goto("/admin");
  // The menu entry carries the waiting count (these four at least).
  await page.getByRole("link", { name: /^Comments \(\d+ waiting\)$/ }).click();
  await expect(page.getByRole("link", { name: /^Pending/ })).toHaveAttribute("aria-current", "page");
  const row = (text: string) => page.getByRole("row", { name: new RegExp(text) });
  await expect(row(first)).toBeVisible();
  await expect(row(first).getByRole("link", { name: `${TAG} Discussed` })).toHaveAttribute(
    "href",
    `/posts/detail/${postId}`,
  );
  await expect(row(first)).toContainText(readerEmail);
  // Newest first.
  const order = await page.getByRole("row").allTextContents();
  const position = (text: string) => order.findIndex((r) => r.includes(text));
  expect(position(fourth)).toBeLessThan(position(first));

  // Approve: visible on the post. Spam: not.
  await row(first)
    .getByRole("button", { name: /^Approve/ })
    .click();
  await expect(row(first)).toHaveCount(0);
  expect(await statusOf(ids[0])).toBe("approved");
  expect(await publicHtml()).toContain(first);
  await (await commentMore(row(second))).getByRole("button", { name: /^Mark as spam/ }).click();
  await expect(row(second)).toHaveCount(0);
  expect(await statusOf(ids[1])).toBe("spam");
  expect(await publicHtml()).not.toContain(second);

  // Bulk: hide the two checked comments, nothing else, in a browser without JavaScript.
  const noJs = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await noJs.newPage();
  await plain.goto("/admin/comments");
  const plainRow = (text: string) => plain.getByRole("row", { name: new RegExp(text) });
  await plainRow(third).getByRole("checkbox").check();
  await plainRow(fourth).getByRole("checkbox").check();
  await plain.getByLabel("With the selected comments").selectOption("hide");
  await plain.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(plainRow(third)).toHaveCount(0);
  await expect(plainRow(fourth)).toHaveCount(0);
  await noJs.close();
  expect([await statusOf(ids[0]), await statusOf(ids[1]), await statusOf(ids[2]), await statusOf(ids[3])]).toEqual([
    "approved",
    "spam",
    "hidden",
    "hidden",
  ]);

  // Bulk delete asks first, then deletes only the checked one.
  // (This page still shows the pending list from before the other browser's change.)
  await page.getByRole("link", { name: /^Hidden/ }).click();
  await expect(page.getByRole("link", { name: /^Hidden/ })).toHaveAttribute("aria-current", "page");
  await row(third).getByRole("checkbox").check();
  await page.getByLabel("With the selected comments").selectOption("delete");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete this comment and its replies?");
  await expect(confirm).toContainText(third);
  expect(await statusOf(ids[2])).toBe("hidden");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(row(third)).toHaveCount(0);
  expect(await statusOf(ids[2])).toBeUndefined();
  expect(await statusOf(ids[3])).toBe("hidden");

  // A row's delete has its own confirmation.
  await (await commentMore(row(fourth))).getByRole("link", { name: /^Delete/ }).click();
  await expect(page.getByRole("alertdialog")).toContainText(fourth);
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(row(fourth)).toHaveCount(0);
  expect(await statusOf(ids[3])).toBeUndefined();
  expect(await publicHtml()).toContain(first);

  const audited = await db
    .selectFrom("auditLog")
    .select(["action", "entityId"])
    .where("entityId", "in", ids)
    .orderBy("createdAt")
    .execute();
  expect(audited.map((e) => e.action)).toEqual([
    "comment.approve",
    "comment.spam",
    "comment.hide",
    "comment.hide",
    "comment.delete",
    "comment.delete",
  ]);

  for (const path of ["/admin/comments", "/admin/comments?status=all", `/admin/comments?confirmDelete=${ids[0]}`])
    await expectNoAxeViolations(page, path);
});

test("an admin bans a comment's author from the queue", async ({ page, serverDb }) => {
  const { db } = serverDb;
  await signedInAdmin(page, db, "content-ban");
  const spammerEmail = `${TAG}-spammer@example.test`;
  const spammer = await insertUser(db, { email: spammerEmail });
  const postId = await createPost(db, {
    slug: `${TAG}-spammed`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-04T00:00:00.000Z",
    translations: [{ locale: "en", title: `${TAG} Spammed` }],
  });
  const at = new Date().toISOString();
  const body = `${TAG} buy cheap things`;
  await db
    .insertInto("comments")
    .values({
      id: newId(),
      postId,
      authorId: spammer,
      parentId: null,
      bodyMarkdown: body,
      bodyHtml: `<p>${body}</p>`,
      status: "pending",
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  await page.goto("/admin/comments");
  const spamRow = page.getByRole("row", { name: new RegExp(body) });
  await (await commentMore(spamRow)).getByRole("button", { name: `Ban author ${spammerEmail}` }).click();
  await expect(page.getByText("Saved.").first()).toBeVisible();
  const row = await db.selectFrom("users").select("banned").where("id", "=", spammer).executeTakeFirstOrThrow();
  expect(Number(row.banned)).toBe(1);
  const entry = await db.selectFrom("auditLog").select("action").where("entityId", "=", spammer).executeTakeFirst();
  expect(entry?.action).toBe("user.ban");
});
