import type { Page } from "@playwright/test";
import { type DB, nowIso } from "../../app/server/db/db.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { insertComment } from "../setup/fixtures-db.ts";
import { signedInAdmin, signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// The admin's own frame (issue 46): a bar with the person's display name, a sidebar grouped
// by purpose marking the current page, a Menu button below 1024 px, no public footer; and a
// dashboard whose counts open the lists they count.

const LABELS = {
  en: { panel: "Admin panel", menu: "Menu", users: "Users", dashboard: "Dashboard", viewSite: "View site" },
  zh: { panel: "管理面板", menu: "菜单", users: "用户", dashboard: "概览", viewSite: "查看网站" },
} as const;

/** Signs in as an admin whose display name is `name`, the admin area in `locale`. */
async function adminNamed(page: Page, db: DB, tag: string, name: string): Promise<string> {
  const email = await signedInAdmin(page, db, tag);
  await db.updateTable("users").set({ name }).where("email", "=", email).execute();
  return email;
}

for (const locale of ["en", "zh"] as const) {
  const l = LABELS[locale];

  test(`the admin wears its own frame, ${locale}: no site footer, the name in the bar, the current page marked`, async ({
    page,
    serverDb,
  }) => {
    const name = locale === "en" ? "Grace Hopper" : "李雷";
    const email = await adminNamed(page, serverDb.db, `shell-frame-${locale}`, name);
    // /{locale}/admin sets the language and sends to /admin (decision 025).
    await page.goto(`/${locale}/admin/users`);
    await expect(page).toHaveURL(/\/admin\/users$/);

    await expect(page.getByTestId("admin-bar")).toBeVisible();
    await expect(page.getByTestId("site-header")).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
    await expect(page.getByTestId("subscribe-form")).toHaveCount(0);
    await expect(page.getByRole("main")).toHaveCount(1);

    // The account menu's summary is the display name; the address appears nowhere in the bar.
    const summary = page.getByTestId("nav-user");
    await expect(summary).toHaveText(name);
    await expect(page.getByTestId("admin-bar")).not.toContainText(email);
    await summary.click();
    await expect(page.getByRole("button", { name: locale === "en" ? "Logout" : "退出登录" })).toBeVisible();
    await page.keyboard.press("Escape");

    const sidebar = page.getByRole("navigation", { name: l.panel });
    await expect(sidebar).toBeVisible();
    await expect(sidebar.getByRole("link", { name: l.users, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(sidebar.getByRole("link", { name: l.dashboard })).not.toHaveAttribute("aria-current", "page");
    await expect(sidebar.locator('[aria-current="page"]')).toHaveCount(1);
    await expect(sidebar.getByRole("link", { name: l.viewSite })).toHaveAttribute("href", "/");

    // A page under a section marks that section.
    await sidebar.getByRole("link", { name: l.dashboard }).click();
    await expect(sidebar.getByRole("link", { name: l.dashboard })).toHaveAttribute("aria-current", "page");
    await expect(sidebar.getByRole("link", { name: l.users, exact: true })).not.toHaveAttribute("aria-current");
  });

  test(`at 390 px the sidebar folds behind the Menu button, ${locale}`, async ({ page, serverDb }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await adminNamed(page, serverDb.db, `shell-phone-${locale}`, "Ada");
    await page.goto(`/${locale}/admin/users`);
    const button = page.getByRole("button", { name: l.menu, exact: true });
    const sidebar = page.getByRole("navigation", { name: l.panel });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toHaveAttribute("aria-controls", "admin-sidebar");
    await expect(sidebar).toBeHidden();

    // From the keyboard: Enter opens it, Escape closes it and leaves focus on the button.
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(sidebar).toBeVisible();
    await expect(sidebar.getByRole("link", { name: l.users, exact: true })).toHaveAttribute("aria-current", "page");
    await page.keyboard.press("Escape");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(sidebar).toBeHidden();
    await expect(button).toBeFocused();

    // A click opens it; choosing a page goes there and folds it again.
    await button.click();
    await expect(sidebar).toBeVisible();
    await sidebar.getByRole("link", { name: l.dashboard }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(sidebar).toBeHidden();
    // Nothing wider than the window, open or closed.
    await button.click();
    await expect(sidebar).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
}

test("without script the sidebar stays in the page at 390 px and the Menu button is not shown", async ({
  page,
  browser,
  serverDb,
  e2eServer,
}) => {
  await adminNamed(page, serverDb.db, "shell-nojs", "Ada");
  const context = await browser.newContext({
    baseURL: e2eServer.url,
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 800 },
  });
  try {
    const plain = await context.newPage();
    await plain.goto("/en/admin/users");
    const sidebar = plain.getByRole("navigation", { name: "Admin panel" });
    await expect(sidebar).toBeVisible();
    await expect(sidebar.getByRole("link", { name: "Users", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(plain.getByRole("button", { name: "Menu", exact: true })).toBeHidden();
    // The account menu is a <details>: it opens without script too.
    await plain.getByTestId("nav-user").click();
    await expect(plain.getByRole("button", { name: "Logout" })).toBeVisible();
  } finally {
    await context.close();
  }
});

test("a section's error page keeps the admin's frame; a reader's 403 wears the site's", async ({ page, serverDb }) => {
  await adminNamed(page, serverDb.db, "shell-error", "Ada");
  const response = await page.goto("/en/admin/categories/no-such-category");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("error-message")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Admin panel" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toHaveCount(0);

  await signedInUser(page, "shell-reader");
  expect((await page.goto("/en/admin"))?.status()).toBe(403);
  await expect(page.getByTestId("site-header")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Admin panel" })).toHaveCount(0);
});

test.describe("the dashboard", () => {
  const made = { posts: [] as string[], sends: [] as string[], deliveries: [] as string[] };

  test.afterAll(async ({ serverDb }) => {
    // Other files share this database: what this file made goes.
    const { db } = serverDb;
    if (made.sends.length) {
      await db.deleteFrom("mailOutbox").where("sendId", "in", made.sends).execute();
      await db.deleteFrom("newsletterSends").where("id", "in", made.sends).execute();
    }
    if (made.deliveries.length)
      await db.deleteFrom("federationDeliveries").where("id", "in", made.deliveries).execute();
    if (made.posts.length) {
      await db.deleteFrom("comments").where("postId", "in", made.posts).execute();
      await db.deleteFrom("posts").where("id", "in", made.posts).execute();
    }
  });

  async function somethingOfEach(db: DB, tag: string) {
    const draft = await createPost(db, {
      slug: `dash-draft-${tag}`,
      authorId: null,
      status: "draft",
      publishedAt: null,
      translations: [{ locale: "en", title: `Dashboard draft ${tag}` }],
    });
    const scheduled = await createPost(db, {
      slug: `dash-scheduled-${tag}`,
      authorId: null,
      status: "scheduled",
      publishedAt: "2099-01-01T00:00:00.000Z",
      translations: [{ locale: "en", title: `Dashboard scheduled ${tag}` }],
    });
    const published = await createPost(db, {
      slug: `dash-published-${tag}`,
      authorId: null,
      status: "published",
      publishedAt: "2026-01-01T00:00:00.000Z",
      translations: [{ locale: "en", title: `Dashboard mailed ${tag}` }],
    });
    made.posts.push(draft, scheduled, published);
    const at = nowIso();
    await insertComment(db, { postId: published, guestName: "Guest", body: `Waiting comment ${tag}`, at });
    const sendId = newId();
    made.sends.push(sendId);
    await db
      .insertInto("newsletterSends")
      .values({
        id: sendId,
        postId: published,
        status: "cancelled",
        cursor: null,
        recipients: 1,
        mails: null,
        createdBy: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await db
      .insertInto("mailOutbox")
      .values({
        id: newId(),
        key: `newsletter:${sendId}:dash`,
        kind: "newsletter",
        recipient: "gone@example.test",
        subject: "s",
        text: "t",
        html: null,
        headers: null,
        status: "failed",
        attempts: 3,
        nextAttemptAt: at,
        lastError: "550 no such user",
        createdAt: at,
        sentAt: null,
        sendId,
        subscriberId: null,
        locale: "en",
      })
      .execute();
    const deliveryId = newId();
    made.deliveries.push(deliveryId);
    await db
      .insertInto("federationDeliveries")
      .values({
        id: deliveryId,
        createdAt: at,
        server: "gone.example",
        inbox: "https://gone.example/inbox",
        activityId: null,
        activityType: "Create",
        outcome: "gave-up",
        attempt: 5,
        status: 410,
        error: "Gone",
      })
      .execute();
  }

  /** The number a dashboard card shows (other files' data is counted too: at least one of ours). */
  async function countOf(page: Page, testId: string): Promise<number> {
    const text = await page.getByTestId(testId).locator("span").first().textContent();
    return Number(text);
  }

  test("says what waits, each count a link to the list it counts (en and zh)", async ({ page, serverDb }) => {
    test.slow();
    await somethingOfEach(serverDb.db, "a");
    await adminNamed(page, serverDb.db, "shell-dashboard", "Ada");
    await page.goto("/en/admin");
    const needs = page.getByRole("region", { name: "Needs your attention" });
    await expect(needs).toBeVisible();
    const cards = [
      { id: "needs-drafts", label: "Drafts", href: "/admin/blog?status=draft" },
      { id: "needs-scheduled", label: "Scheduled posts", href: "/admin/blog?status=scheduled" },
      { id: "needs-comments", label: "Comments waiting for moderation", href: "/admin/comments?status=pending" },
      {
        id: "needs-newsletter",
        label: "Newsletter sends with failed mails",
        href: "/admin/newsletter?show=failed#newsletter-sends",
      },
      {
        id: "needs-fediverse",
        label: "Failed Fediverse deliveries",
        href: "/admin/fediverse?log=failures#fediverse-deliveries",
      },
    ];
    for (const card of cards) {
      const link = page.getByTestId(card.id);
      await expect(link).toHaveAttribute("href", card.href);
      await expect(link).toContainText(card.label);
      expect(await countOf(page, card.id), card.id).toBeGreaterThanOrEqual(1);
    }
    await expect(page.getByRole("region", { name: "Last 7 days" })).toBeVisible();
    await expect(page.getByTestId("last-reads")).toHaveAttribute("href", "/admin/insights?days=7");
    await expect(page.getByTestId("last-subscribers")).toHaveAttribute("href", "/admin/subscribers?status=confirmed");

    // Each link opens its list, filtered.
    await page.getByTestId("needs-drafts").click();
    await expect(page).toHaveURL(/\/admin\/blog\?status=draft$/);
    await expect(page.getByLabel("Status")).toHaveValue("draft");
    await expect(page.getByText("Dashboard draft a")).toBeVisible();
    await page.goto("/admin");
    await page.getByTestId("needs-scheduled").click();
    await expect(page.getByLabel("Status")).toHaveValue("scheduled");
    await expect(page.getByText("Dashboard scheduled a")).toBeVisible();
    await page.goto("/admin");
    await page.getByTestId("needs-comments").click();
    await expect(page.getByRole("link", { name: "Pending" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("Waiting comment a")).toBeVisible();
    await page.goto("/admin");
    await page.getByTestId("needs-newsletter").click();
    await expect(page.getByRole("link", { name: "With failed mails" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("table").getByText("Dashboard mailed a")).toBeVisible();
    await page.goto("/admin");
    await page.getByTestId("needs-fediverse").click();
    await expect(page.getByTestId("delivery-log").getByRole("link", { name: "Failures" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByTestId("delivery-log").getByText("gone.example").first()).toBeVisible();

    // In Chinese, the same counts under Chinese names.
    await page.goto("/zh/admin");
    await expect(page.getByRole("region", { name: "待处理" })).toBeVisible();
    await expect(page.getByTestId("needs-drafts")).toContainText("草稿");
    await expect(page.getByTestId("needs-comments")).toContainText("待审核的评论");
    await expect(page.getByRole("region", { name: "最近 7 天" })).toBeVisible();
    await expect(page.getByTestId("last-subscribers")).toContainText("新订阅者");
  });
});
