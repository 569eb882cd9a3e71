import type { Page } from "@playwright/test";
import sharp from "sharp";
import { nowIso } from "../../app/server/db/db.server.ts";
import { requestSubscription } from "../../app/server/newsletter/subscribers.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { expectAlignedFilters, expectNoClippedControls, expectNoSidewaysScroll } from "./layout-checks.ts";

// The owner's journey through the admin (issue 46, "Done when"): every section opened from
// the sidebar at 1280 px and at 390 px, in both languages, each checked for the layout rules
// (no public footer, nothing wider than the window, no control text cut off, the filter
// controls of a list aligned, the display name in the bar); then the lists that read as
// cards on a phone, the file picker in the page's language, and the audit log.
// Editing another author's post is admin-other-authors.spec.ts; publishing from the list
// and in bulk, admin-posts-list.spec.ts.

const UI = {
  en: {
    panel: "Admin panel",
    menu: "Menu",
    choose: "Choose a file",
    none: "No file chosen — or drag one here",
    wrongKind: "“notes.txt” is not a file this form takes (.csv).",
    upload: "Upload",
    uploaded: (name: string) => `Uploaded ${name}`,
    more: (name: string) => `More actions for “${name}”`,
    delete: (name: string) => `Delete “${name}”`,
    date: /^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}$/,
  },
  zh: {
    panel: "管理面板",
    menu: "菜单",
    choose: "选择文件",
    none: "未选择文件，也可以把文件拖到这里",
    wrongKind: "“notes.txt”不是这里能用的文件（.csv）。",
    upload: "上传",
    uploaded: (name: string) => `已上传 ${name}`,
    more: (name: string) => `“${name}”的更多操作`,
    delete: (name: string) => `删除“${name}”`,
    date: /^\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/,
  },
} as const;

const STAMP = Date.now().toString(36);
const subscribers: string[] = [];
const posts: string[] = [];
const entries: string[] = [];

test.afterAll(async ({ serverDb }) => {
  // Other files share this database (the dashboard counts subscribers and posts).
  const { db } = serverDb;
  if (subscribers.length) await db.deleteFrom("subscribers").where("email", "in", subscribers).execute();
  if (posts.length) await db.deleteFrom("posts").where("id", "in", posts).execute();
  if (entries.length) await db.deleteFrom("auditLog").where("id", "in", entries).execute();
  await db.deleteFrom("media").where("originalName", "like", `journey-${STAMP}-%`).execute();
});

/** An admin whose display name is `name`, the admin in `locale`; returns the address. */
async function owner(page: Page, db: Parameters<typeof signedInAdmin>[1], tag: string, name: string) {
  const email = await signedInAdmin(page, db, tag);
  await db.updateTable("users").set({ name }).where("email", "=", email).execute();
  return email;
}

/** The layout rules, on the page as it is now. */
async function checkPage(page: Page, name: string, email: string, desktop: boolean, where: string) {
  await expect(page.getByRole("contentinfo"), where).toHaveCount(0);
  await expect(page.getByTestId("subscribe-form"), where).toHaveCount(0);
  await expect(page.getByTestId("nav-user"), where).toHaveText(name);
  // The users list shows addresses by design; the bar never does.
  await expect(page.getByTestId("admin-bar"), where).not.toContainText(email);
  await expectNoSidewaysScroll(page, where);
  await expectNoClippedControls(page, where);
  for (const filters of await page.locator('[data-testid$="-filters"]').all()) {
    await expectAlignedFilters(filters, desktop, where);
  }
}

for (const locale of ["en", "zh"] as const) {
  test(`the owner opens every section from the sidebar at 1280 and 390 px (${locale})`, async ({
    page,
    serverDb,
    baseURL,
  }) => {
    test.slow();
    const ui = UI[locale];
    const name = locale === "en" ? "Margaret Owner" : "王店主";
    const email = await owner(page, serverDb.db, `journey-${locale}`, name);
    await page.context().addCookies([{ name: "locale", value: locale, url: baseURL ?? "" }]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/admin");
    const sidebar = page.getByRole("navigation", { name: ui.panel });
    // Every entry that stays in the admin (New post opens the editor, View site the blog).
    const sections = (await sidebar
      .locator('a[href^="/admin"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""))) as string[];
    expect(sections.length).toBeGreaterThan(18);
    expect(sections).toContain("/admin/audit");

    for (const href of sections) {
      const link = sidebar.locator(`a[href="${href}"]`);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(link).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await checkPage(page, name, email, true, `${href} at 1280 px`);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    // Start elsewhere than the first entry: choosing a page is what folds the menu.
    await page.goto("/admin/blog");
    const menu = page.getByRole("button", { name: ui.menu, exact: true });
    for (const href of sections) {
      await menu.click();
      await sidebar.locator(`a[href="${href}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(sidebar).toBeHidden();
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await checkPage(page, name, email, false, `${href} at 390 px`);
    }
  });
}

test("on a phone, in Chinese: subscribers and media read as cards, the file picker speaks Chinese and takes a dropped file", async ({
  page,
  serverDb,
  baseURL,
}) => {
  const ui = UI.zh;
  const { db } = serverDb;
  const address = `journey-${STAMP}.a.rather.long.mailbox.name@department.example-university.edu.cn`;
  subscribers.push(address);
  await requestSubscription(db, { email: address, locale: "zh" });
  const email = await owner(page, db, "journey-phone", "王店主");
  await page.context().addCookies([{ name: "locale", value: "zh", url: baseURL ?? "" }]);
  await page.setViewportSize({ width: 390, height: 844 });

  // Subscribers: one card, its address cut short but whole on hover, its times short.
  await page.goto(`/admin/subscribers?q=journey-${STAMP}`);
  const card = page.getByRole("row", { name: new RegExp(`journey-${STAMP}`) });
  await expect(card).toHaveCount(1);
  await expect(card.getByText("待确认", { exact: true })).toBeVisible();
  await expect(card.locator("time").first()).toHaveText(ui.date);
  await checkPage(page, "王店主", email, false, "subscribers");

  // The import's picker: the page's language, the browser's own button out of sight.
  await page.getByText("从 CSV 文件导入订阅者").click();
  const picker = page.getByLabel("CSV 文件");
  await expect(picker).toHaveCSS("opacity", "0");
  const zone = page.getByTestId("import-file-chosen");
  await expect(zone).toHaveText(ui.none);
  await expect(page.getByText(ui.choose, { exact: true })).toBeVisible();
  // A file dropped on the zone becomes the input's file; one of another kind is refused at once.
  const drop = async (fileName: string, type: string, text: string) => {
    const transfer = await page.evaluateHandle(
      ([n, t, body]) => {
        const data = new DataTransfer();
        data.items.add(new File([body], n, { type: t }));
        return data;
      },
      [fileName, type, text] as const,
    );
    await page.locator("[data-file-picker]").first().dispatchEvent("drop", { dataTransfer: transfer });
  };
  await drop("members.csv", "text/csv", "email\nann@example.test\n");
  await expect(zone).toHaveText(/^members\.csv（\d+ B）$/);
  expect(await picker.evaluate((el: HTMLInputElement) => el.files?.[0]?.name)).toBe("members.csv");
  await drop("notes.txt", "text/plain", "hello");
  await expect(page.getByText(ui.wrongKind)).toBeVisible();
  expect(await picker.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);

  // Media: the picker takes the keyboard; an upload becomes a card whose actions are reachable.
  await page.goto("/admin/media");
  const image = page.getByLabel("图片文件");
  await page.getByRole("search").getByRole("button").focus();
  for (let i = 0; i < 5 && !(await image.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Shift+Tab");
  }
  await expect(image).toBeFocused();
  const fileName = `journey-${STAMP}-lake.jpg`;
  await image.setInputFiles({
    name: fileName,
    mimeType: "image/jpeg",
    buffer: await sharp({ create: { width: 320, height: 200, channels: 3, background: "#3070a0" } })
      .jpeg()
      .toBuffer(),
  });
  await expect(page.getByTestId("media-file-chosen")).toContainText(fileName);
  await page.getByRole("button", { name: ui.upload, exact: true }).click();
  await expect(page.getByText(ui.uploaded(fileName), { exact: false })).toBeVisible();
  await page.goto(`/admin/media?q=journey-${STAMP}`);
  const mediaCard = page.getByRole("row", { name: new RegExp(`journey-${STAMP}`) });
  await expect(mediaCard.locator("time")).toHaveText(ui.date);
  await mediaCard.getByLabel(ui.more(fileName)).click();
  await expect(mediaCard.getByRole("link", { name: ui.delete(fileName) })).toBeVisible();
  await checkPage(page, "王店主", email, false, "media");
});

test("without script the file picker is the browser's own input, still labelled and usable", async ({
  page,
  browser,
  serverDb,
  e2eServer,
}) => {
  await owner(page, serverDb.db, "journey-nojs", "Ada");
  const context = await browser.newContext({
    baseURL: e2eServer.url,
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  try {
    const plain = await context.newPage();
    await plain.goto("/en/admin/redirects/import");
    const input = plain.getByLabel("CSV file");
    await expect(input).toBeVisible();
    await expect(input).toHaveCSS("opacity", "1");
    await expect(plain.getByText(UI.en.choose, { exact: true })).toBeHidden();
  } finally {
    await context.close();
  }
});

test("the audit log names people by their display name, filters by person and action, links what still exists", async ({
  page,
  serverDb,
}) => {
  const { db } = serverDb;
  const ownerName = `Audit Owner ${STAMP}`;
  const email = await owner(page, db, "journey-audit", ownerName);
  const me = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const postTitle = `Audited post ${STAMP}`;
  const postId = await createPost(db, {
    slug: `journey-audited-${STAMP}`,
    authorId: null,
    status: "draft",
    publishedAt: null,
    translations: [{ locale: "en", title: postTitle }],
  });
  posts.push(postId);
  const entry = async (
    action: string,
    type: string,
    id: string,
    title: string,
    actor: { id: string | null; email: string },
  ) => {
    const at = nowIso();
    const rowId = newId();
    entries.push(rowId);
    await db
      .insertInto("auditLog")
      .values({
        id: rowId,
        actorId: actor.id,
        actorEmail: actor.email,
        action,
        entityType: type,
        entityId: id,
        details: JSON.stringify({ title }),
        createdAt: at,
        updatedAt: at,
      })
      .execute();
  };
  await entry("post.update", "post", postId, postTitle, { id: me.id, email });
  await entry("ad.delete", "ad", newId(), `Gone ad ${STAMP}`, { id: me.id, email });
  await entry("post.publish", "post", postId, postTitle, { id: null, email: "system:scheduler" });

  await page.goto("/en/admin/audit");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  await page.getByLabel("Person").selectOption({ label: ownerName });
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`actor=${me.id}`));
  const table = page.getByTestId("audit-table");
  await expect(table.getByRole("row")).toHaveCount(3); // the header and two entries
  await expect(table).toContainText(ownerName);
  await expect(page.getByRole("main")).not.toContainText(email);
  await expect(table.getByRole("link", { name: postTitle })).toHaveAttribute("href", `/posts/edit/${postId}`);
  await expect(table.getByRole("row", { name: new RegExp(`Gone ad ${STAMP}`) })).toContainText("(no longer there)");
  await expect(table.getByRole("link", { name: `Gone ad ${STAMP}` })).toHaveCount(0);

  await page.getByLabel("Person").selectOption({ label: "Scheduled publishing" });
  await page.getByLabel("Action").selectOption("post.publish");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/action=post\.publish&actor=system%3Ascheduler/);
  const published = table.getByRole("row", { name: new RegExp(postTitle) });
  await expect(published).toHaveCount(1);
  await expect(published).toContainText("Scheduled publishing");
  await expect(published).toContainText("post.publish");
  await expect(table.getByText("post.update")).toHaveCount(0);
});
