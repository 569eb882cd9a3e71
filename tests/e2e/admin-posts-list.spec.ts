import type { Locator, Page } from "@playwright/test";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

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

/** Nothing on the page is wider than the window. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

/** No visible button, link-as-button, select or summary in the list cuts its text off. */
async function expectNoClippedControls(page: Page) {
  const clipped = await page.getByRole("main").evaluate((main) =>
    [...main.querySelectorAll<HTMLElement>("button, summary, a.rounded-md")]
      .filter((el) => el.checkVisibility())
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent?.trim()),
  );
  expect(clipped).toEqual([]);
  // A select shows its chosen option whole: the text, its padding and the arrow fit.
  const cutSelects = await page.getByRole("main").evaluate((main) =>
    [...main.querySelectorAll<HTMLSelectElement>("select")]
      .filter((el) => el.checkVisibility())
      .filter((el) => {
        const probe = document.createElement("span");
        probe.textContent = el.selectedOptions[0]?.textContent ?? "";
        probe.style.font = getComputedStyle(el).font;
        probe.style.position = "absolute";
        probe.style.whiteSpace = "nowrap";
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        const style = getComputedStyle(el);
        const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
        // The arrow takes about 16 px after the right padding.
        return text + padding + 16 > el.clientWidth;
      })
      .map((el) => el.selectedOptions[0]?.textContent),
  );
  expect(cutSelects).toEqual([]);
}

/** A label is one line: as tall as one line of its text, never "已发" over "布". */
async function expectOneLine(label: Locator) {
  const lines = await label.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);
}

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
      const controls = page.getByTestId("post-filters").locator("input[type=search], select, button");
      const boxes = await controls.evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { top: Math.round(r.top), height: Math.round(r.height) };
        }),
      );
      expect(new Set(boxes.map((b) => b.height)).size).toBe(1);
      if (width === 1280)
        expect(
          boxes.map((b) => b.top),
          JSON.stringify(boxes),
        ).toEqual(boxes.map(() => boxes[0]?.top));
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
