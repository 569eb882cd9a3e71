import type { Page } from "@playwright/test";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// Issue 48 (decision 035): the owner writes a page in both languages, adds it to the main menu
// of each language, and readers find it in the header: one row at 1280 px, the phone menu at 390.

const STAMP = Date.now().toString(36);
const SLUG = `now-${STAMP}`;
const EN_TITLE = `Now ${STAMP}`;
const ZH_TITLE = `近况 ${STAMP}`;

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: leave the menus at their default and no page behind.
  await serverDb.db.deleteFrom("menus").execute();
  await serverDb.db.deleteFrom("pages").where("slug", "=", SLUG).execute();
});

const panel = (page: Page, name: "English" | "中文") => page.getByRole("tabpanel", { name });

/** The text editor of a language tab, once CodeMirror has taken over the textarea. */
async function body(page: Page, name: "English" | "中文") {
  await expect(panel(page, name).locator(".cm-content")).toBeVisible();
  return panel(page, name).getByRole("textbox", { name: "Text" });
}

/** How far apart (px) the middles of the header bar's visible controls are: under a line, one row. */
async function headerSpread(page: Page): Promise<number> {
  return page.getByTestId("site-header").evaluate((header) => {
    const middles: number[] = [];
    for (const el of header.querySelectorAll("nav a, nav button, nav summary")) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) middles.push((box.top + box.bottom) / 2);
    }
    return Math.max(...middles) - Math.min(...middles);
  });
}

test("the owner writes a page in both languages, puts it in the main menu, and readers find it", async ({
  page,
  browser,
  baseURL,
  serverDb,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signedInAdmin(page, serverDb.db, "pages-menus");

  // Pages, from the sidebar's Content group.
  await page.goto("/en/admin");
  await page.getByRole("link", { name: "Pages", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
  await expect(page.getByTestId("page-row-about")).toBeVisible();

  // A reserved address is a field error, not a page.
  await page.getByRole("link", { name: "New page" }).first().click();
  await page.getByLabel("Address").fill("posts");
  await page.getByLabel("Status").selectOption("published");
  await panel(page, "English").getByLabel("Title", { exact: true }).fill(EN_TITLE);
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("The site already uses this address for one of its own pages.")).toBeVisible();

  await page.getByLabel("Address").fill(SLUG);
  await (await body(page, "English")).fill("What I am **doing** now.");
  await page.getByRole("tab", { name: "中文" }).click();
  await panel(page, "中文").getByLabel("Title", { exact: true }).fill(ZH_TITLE);
  await (await body(page, "中文")).fill("我现在在做的事。");
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page).toHaveURL(/\/admin\/pages\/[0-9a-z]{20}$/);
  await expect(page.getByRole("link", { name: "View page" })).toHaveAttribute("href", `/${SLUG}`);

  // The main menu of each language gets the page, by the form (no drag needed).
  for (const [lang, title] of [
    ["en", EN_TITLE],
    ["zh", ZH_TITLE],
  ] as const) {
    await page.goto(`/admin/menus?menu=main&lang=${lang}`);
    await expect(page.getByRole("heading", { level: 1, name: "Menus" })).toBeVisible();
    await page.getByLabel("Leads to").selectOption({ label: `${lang === "en" ? EN_TITLE : ZH_TITLE} (/${SLUG})` });
    await page.getByRole("button", { name: "Add to the menu" }).click();
    await expect(page.getByTestId("menu-items").getByRole("listitem")).toHaveCount(3);
    await expect(page.getByTestId("menu-preview").getByRole("link", { name: title })).toBeVisible();
  }
  // Moved first with the keyboard's way, a button.
  await page.getByRole("button", { name: `Move “${ZH_TITLE}” up` }).click();
  await expect(page.getByTestId("menu-item-1")).toContainText("Page");
  await expect(page.getByTestId("menu-preview").getByRole("link").nth(1)).toHaveText(ZH_TITLE);

  // A reader, at 1280 px: the page is in the header, which stays one row.
  const reader = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const readerPage = await reader.newPage();
  try {
    for (const [lang, title, body] of [
      ["en", EN_TITLE, "doing"],
      ["zh", ZH_TITLE, "我现在在做的事。"],
    ] as const) {
      await readerPage.goto(`/${lang}`);
      const menu = readerPage.getByTestId("main-menu");
      await expect(menu.getByRole("link", { name: title })).toBeVisible();
      expect(await headerSpread(readerPage)).toBeLessThan(12);
      await menu.getByRole("link", { name: title }).click();
      await expect(readerPage).toHaveURL(new RegExp(`/${lang}/${SLUG}$`));
      await expect(readerPage.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(readerPage.getByText(body)).toBeVisible();
    }

    // At 390 px the phone menu lists every item.
    await readerPage.setViewportSize({ width: 390, height: 800 });
    await readerPage.goto("/zh");
    const menu = readerPage.getByTestId("main-menu");
    await expect(menu.getByRole("link", { name: ZH_TITLE })).toBeHidden();
    await readerPage.getByRole("button", { name: "打开菜单" }).click();
    for (const name of ["首页", ZH_TITLE, "全部博客"]) await expect(menu.getByRole("link", { name })).toBeVisible();
    await menu.getByRole("link", { name: ZH_TITLE }).click();
    await expect(readerPage.getByRole("heading", { level: 1, name: ZH_TITLE })).toBeVisible();
  } finally {
    await reader.close();
  }

  // Back to the default menus (which also drops the cached pages), and the page deleted.
  for (const lang of ["en", "zh"]) {
    await page.goto(`/admin/menus?menu=main&lang=${lang}`);
    await page.getByRole("button", { name: "Back to the default" }).click();
    await expect(page.getByTestId("menu-items").getByRole("listitem")).toHaveCount(2);
  }
});
