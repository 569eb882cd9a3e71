import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import {
  expectAlignedFilters,
  expectNoClippedControls,
  expectNoSidewaysScroll,
  expectOneLine,
} from "./layout-checks.ts";

// The admin posts list reads at a glance (issue 46): publish from a row's "More" menu and a
// bulk action, at a desktop and a phone width, in both languages, with nothing wider than
// the window, no control text cut off, one row of equal-height filter controls at 1280 px,
// and status labels that never break inside a word ("已发/布").

const UI = {
  en: {
    more: (title: string) => `More actions: “${title}”`,
    publish: (title: string) => `Publish: “${title}”`,
    select: (title: string) => `Select “${title}”`,
    selectAll: "Select all posts on this page",
    draft: "Draft",
    published: "Published",
    bulk: "With selected posts",
    bulkPublish: "Publish",
    apply: "Apply to selected",
    done: "The selected posts are published.",
    dateHeader: "Date (Asia/Shanghai)",
    date: /^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}$/,
  },
  zh: {
    more: (title: string) => `更多操作：“${title}”`,
    publish: (title: string) => `发布：“${title}”`,
    select: (title: string) => `选择“${title}”`,
    selectAll: "选择本页全部文章",
    draft: "草稿",
    published: "已发布",
    bulk: "对选中的文章",
    bulkPublish: "发布",
    apply: "应用到所选",
    done: "所选文章已发布。",
    dateHeader: "日期（Asia/Shanghai）",
    date: /^\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/,
  },
} as const;

const TAG = `posts-list-${Date.now()}`;

test.use({ timezoneId: "Asia/Shanghai" });

test.afterAll(async ({ serverDb }) => {
  await serverDb.db.deleteFrom("posts").where("slug", "like", `${TAG}-%`).execute();
});

for (const locale of ["en", "zh"] as const) {
  for (const width of [1280, 390]) {
    test(`publish from the list and in bulk at ${width} px (${locale})`, async ({ page, serverDb, baseURL }) => {
      const ui = UI[locale];
      const { db } = serverDb;
      const stamp = `${TAG}-${locale}-${width}`;
      const titles = [1, 2, 3].map((n) => (locale === "en" ? `${stamp} post ${n}` : `${stamp} 文章 ${n}`));
      const ids: string[] = [];
      for (const [i, title] of titles.entries()) {
        ids.push(
          await createPost(db, {
            slug: `${stamp}-${i}`,
            authorId: null,
            status: "draft",
            publishedAt: null,
            translations: [
              { locale: "en", title },
              { locale: "zh", title: `${title}（中文）` },
            ],
          }),
        );
      }
      await page.setViewportSize({ width, height: 900 });
      await signedInAdmin(page, db, `posts-list-${locale}-${width}`);
      await page.context().addCookies([{ name: "locale", value: locale, url: baseURL ?? "" }]);
      await page.goto(`/admin/blog?q=${stamp}&sort=title`);

      const rows = page.getByTestId("post-row");
      await expect(rows).toHaveCount(3);
      const rowOf = (title: string) => rows.filter({ hasText: title });
      const first = rowOf(titles[0] ?? "");
      // The shown title follows the language; either way the row names its post.
      await expect(first.getByText("EN", { exact: true })).toBeVisible();
      await expect(first.getByText("中文", { exact: true })).toBeVisible();
      await expect(first.getByText(ui.draft, { exact: true })).toBeVisible();
      // Short dates, in the viewer's zone, named once in the header.
      await expect(first.locator("time")).toHaveText(ui.date);
      if (width === 1280) await expect(page.getByRole("columnheader", { name: ui.dateHeader })).toBeVisible();

      // Filters: one height for every control, in one row on a desktop.
      await expectAlignedFilters(page.getByTestId("post-filters"), width === 1280);
      await expectNoSidewaysScroll(page);
      await expectNoClippedControls(page);

      // Publish one from its row's "More" menu (a disclosure: keyboard and no-JS friendly).
      const title0 = locale === "en" ? (titles[0] ?? "") : `${titles[0]}（中文）`;
      await first.getByLabel(ui.more(title0)).click();
      await expectNoSidewaysScroll(page);
      await expectNoClippedControls(page);
      await first.getByRole("button", { name: ui.publish(title0) }).click();
      const label = first.getByText(ui.published, { exact: true });
      await expect(label).toBeVisible();
      await expectOneLine(label);
      const after = await db
        .selectFrom("posts")
        .select("status")
        .where("id", "=", ids[0] ?? "")
        .executeTakeFirstOrThrow();
      expect(after.status).toBe("published");

      // Publish the other two at once: checked one by one on a desktop, with "select all" on a
      // phone (the post already live is left alone).
      if (width === 1280) {
        for (const title of titles.slice(1)) {
          const shown = locale === "en" ? title : `${title}（中文）`;
          await page.getByRole("checkbox", { name: ui.select(shown) }).check();
        }
      } else {
        await page.getByRole("checkbox", { name: ui.selectAll }).check();
      }
      await page.getByLabel(ui.bulk).selectOption("publish");
      await page.getByRole("button", { name: ui.apply }).click();
      await expect(page.getByText(ui.done)).toBeVisible();
      await expect(rows.getByText(ui.published, { exact: true })).toHaveCount(3);
      const statuses = await db.selectFrom("posts").select("status").where("id", "in", ids).execute();
      expect(statuses.map((s) => s.status)).toEqual(["published", "published", "published"]);
      for (const l of await rows.getByText(ui.published, { exact: true }).all()) await expectOneLine(l);
      await expectNoSidewaysScroll(page);
      await expectNoClippedControls(page);
    });
  }
}
