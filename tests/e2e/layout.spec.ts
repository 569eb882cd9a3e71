import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import type { DB } from "../../app/server/db/db.server.ts";
import { nameOf, signedInAdmin, signedInUser } from "./account-helpers.ts";
import { type AxeScope, axeFindings } from "./axe.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";
import { createShowcasePost } from "./showcase-post.ts";

// The layout at every width (issue 25): the main pages at phone, tablet and desktop
// widths, both languages, signed out, signed in and as an admin. On each page: nothing
// wider than the window, the header in one row from 1024 px, no text cut by its own box,
// nothing drawn over anything else, and (at one width per group) nothing for axe.
// A screenshot of a page that fails a check is attached to the report; the few pictures
// compared with references (header, a post, the editor) are in visual.spec.ts.

const WIDTHS = [320, 390, 768, 1024, 1280, 1440] as const;
const LOCALES = ["en", "zh"] as const;
type Locale = (typeof LOCALES)[number];
type Role = "reader" | "user" | "admin";

// The style-guide post (long, with a table of contents, code and tables), written once
// per worker (each worker has its own server) and removed when the worker is done.
let postId: Promise<string> | null = null;
const created: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (created.length) await serverDb.db.deleteFrom("posts").where("id", "in", created).execute();
  created.length = 0;
  postId = null;
});

function showcase(db: DB): Promise<string> {
  postId ??= createShowcasePost(db, "layout").then((id) => {
    created.push(id);
    return id;
  });
  return postId;
}

/** The pages each role is checked on; `{id}` is the style-guide post. */
function pagesFor(role: Role, locale: Locale): string[] {
  const reading = [`/${locale}`, `/${locale}/posts/detail/{id}`, `/${locale}/posts/page/1`, `/${locale}/search?q=code`];
  if (role === "reader") return [...reading, `/${locale}/solana`];
  if (role === "user") return [`/${locale}/posts/detail/{id}`, `/${locale}/account`];
  // The admin's tree has no prefix: /{locale}/admin sets the language cookie and redirects.
  return [
    `/${locale}`,
    `/${locale}/posts/detail/{id}`,
    `/${locale}/posts/createPost`,
    `/${locale}/admin`,
    "/admin/users",
    // The admin's frame around a list with filters and a table (issue 46).
    "/admin/blog",
    "/admin/newsletter",
    // Pages and menus (issue 48): a card table, the editor's tabs, the menu rows and preview.
    "/admin/pages",
    "/admin/pages/new",
    "/admin/menus",
    `/${locale}/account`,
    `/${locale}/solana`,
  ];
}

interface LayoutReport {
  scrollWidth: number;
  innerWidth: number;
  headerItems: { label: string; top: number; bottom: number }[];
  clipped: string[];
  overlaps: string[];
}

/** Measures the page in the browser: overflow, the header's items, text cut by its box. */
function measure(page: Page): Promise<LayoutReport> {
  return page.evaluate(() => {
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== "hidden";
    };
    const nameOf = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    // The site's header bar, or in the admin its own bar (components/admin/admin-shell.tsx).
    const nav = document.querySelector('[data-testid="site-header"] nav, [data-testid="admin-bar"]');
    // The bar's own items: the links, buttons and the account summary that are shown,
    // not those inside a closed menu.
    const headerItems = [...(nav?.querySelectorAll("a, button, summary") ?? [])]
      .filter((el) => visible(el) && !el.closest("details:not([open]) > :not(summary)"))
      .map((el) => {
        const r = el.getBoundingClientRect();
        return { label: nameOf(el), top: r.top, bottom: r.bottom };
      });
    // Text cut by its own box: an element holding text whose content is wider or
    // taller than the box while the box hides what overflows. Boxes that scroll
    // (code, tables) and visually hidden text are meant; a truncated line that
    // carries its whole text in a title is a deliberate ellipsis.
    const clipped: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>("*")) {
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!hasText || !visible(el)) continue;
      const style = getComputedStyle(el);
      // Visually hidden at some widths only too: a list's column headers above its cards.
      if (style.display === "inline" || el.closest(".sr-only, [class*='max-md:sr-only'], pre, textarea, .table-scroll"))
        continue;
      const hides = (o: string) => o === "hidden" || o === "clip";
      const wide = hides(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const tall = hides(style.overflowY) && el.scrollHeight > el.clientHeight + 2;
      if (!wide && !tall) continue;
      const titled = el.closest("[title]") !== null && style.textOverflow === "ellipsis";
      if (!titled) clipped.push(nameOf(el));
    }
    // Elements drawn over one another: the boxes a reader sees (text, controls, images),
    // each line of an inline element on its own, as far as the boxes that hide or scroll
    // what overflows let them show; one inside the other is meant, and 2 px are forgiven.
    type Box = { left: number; top: number; right: number; bottom: number };
    const seenPart = (el: Element, r: DOMRect): Box | null => {
      let box: Box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const c = p.getBoundingClientRect();
        box = {
          left: Math.max(box.left, c.left),
          top: Math.max(box.top, c.top),
          right: Math.min(box.right, c.right),
          bottom: Math.min(box.bottom, c.bottom),
        };
      }
      return box.right > box.left && box.bottom > box.top ? box : null;
    };
    const drawn = [
      ...document.body.querySelectorAll(
        "a, button, input, select, textarea, summary, img, video, h1, h2, h3, h4, h5, h6, p, label, th, td, figcaption, pre",
      ),
    ]
      .filter((el) => {
        if (el.closest(".sr-only, details:not([open]) > :not(summary), [hidden], [aria-hidden='true'], .Toastify"))
          return false;
        const style = getComputedStyle(el);
        return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) > 0;
      })
      .map((el) => ({
        el,
        boxes: [...el.getClientRects()].map((r) => seenPart(el, r)).filter((b): b is Box => b !== null),
      }))
      .filter((d) => d.boxes.length > 0);
    const overlaps: string[] = [];
    for (let i = 0; i < drawn.length; i++) {
      for (let j = i + 1; j < drawn.length; j++) {
        const a = drawn[i];
        const b = drawn[j];
        if (!a || !b || a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const hit = a.boxes.some((p) =>
          b.boxes.some(
            (q) =>
              Math.min(p.right, q.right) - Math.max(p.left, q.left) > 2 &&
              Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 2,
          ),
        );
        if (hit) overlaps.push(`${nameOf(a.el)} over ${nameOf(b.el)}`);
      }
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      headerItems,
      clipped,
      overlaps,
    };
  });
}

/** Opens a page and waits for what decides its line breaks (the fonts). */
async function open(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await page.evaluate(() => document.fonts.ready);
}

/** How far apart, in px, the middles of the header's items are: 0 when they share one row. */
function headerSpread(report: LayoutReport): number {
  if (report.headerItems.length === 0) return 0;
  const middles = report.headerItems.map((i) => (i.top + i.bottom) / 2);
  return Math.max(...middles) - Math.min(...middles);
}

/**
 * Sets the window's width on the open page and checks it there. A page is loaded once
 * and checked at each width of its group: the layout follows the width as it does when
 * a reader turns a tablet, and loading every page again at every width cost most of
 * this spec's time.
 */
async function checkAt(
  page: Page,
  testInfo: TestInfo,
  path: string,
  width: number,
  name: string,
  axe: AxeScope["rules"] | null,
) {
  await page.setViewportSize({ width, height: 800 });
  // Two frames: the new width's styles, then its layout, are in before measuring.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  const report = await measure(page);
  // A picture of the page when a check is about to fail, for whoever reads the report; a
  // picture of every page at every width cost a screenshot per check and no one saw them.
  if (
    report.scrollWidth > report.innerWidth ||
    report.clipped.length > 0 ||
    report.overlaps.length > 0 ||
    (width >= 1024 && headerSpread(report) > 6)
  ) {
    await testInfo.attach(`${name} ${path.replaceAll("/", "_")}.png`, {
      body: await page.screenshot(),
      contentType: "image/png",
    });
  }
  expect(report.scrollWidth, `${path} at ${width}px is wider than the window`).toBeLessThanOrEqual(report.innerWidth);
  expect(report.clipped, `${path} at ${width}px cuts text`).toEqual([]);
  expect(report.overlaps, `${path} at ${width}px draws elements over one another`).toEqual([]);
  if (axe) expect(await axeFindings(page, { rules: axe }), `${path} at ${width}px: axe`).toEqual([]);
  if (width >= 1024) {
    expect(report.headerItems.length, `${path}: the header's items`).toBeGreaterThan(2);
    expect(
      headerSpread(report),
      `${path} at ${width}px: header items not in one row: ${JSON.stringify(report.headerItems)}`,
    ).toBeLessThanOrEqual(6);
  }
}

/**
 * Each page of the role once, checked at every width of the group (axe at `axeAt`, on the
 * first `axePages` pages, or all of them).
 */
async function checkPages(
  page: Page,
  testInfo: TestInfo,
  paths: string[],
  widths: readonly number[],
  label: string,
  axeAt: number | null,
  { axeRules = "all", axePages = paths.length }: { axeRules?: AxeScope["rules"]; axePages?: number } = {},
) {
  for (const [index, path] of paths.entries()) {
    await page.setViewportSize({ width: widths[0] ?? 1280, height: 800 });
    await open(page, path);
    for (const width of widths) {
      const axe = width === axeAt && index < axePages ? axeRules : null;
      await checkAt(page, testInfo, path, width, `${label} ${width}`, axe);
    }
  }
}

async function signIn(page: Page, db: DB, role: Role, tag: string) {
  if (role === "user") await signedInUser(page, tag);
  if (role === "admin") await signedInAdmin(page, db, tag);
}

// The dark theme at one width per layout (phone and desktop), as an admin sees the most:
// declared first, being the longest tests here, so they do not start last.
for (const locale of LOCALES) {
  test(`admin, dark theme, ${locale}: the same checks at 390 and 1280 px`, async ({ page, serverDb }, testInfo) => {
    test.setTimeout(ceiling(240_000));
    const id = await showcase(serverDb.db);
    await page.emulateMedia({ colorScheme: "dark" });
    await signedInAdmin(page, serverDb.db, `layout-dark-${locale}`);
    const paths = pagesFor("admin", locale).map((p) => p.replace("{id}", id));
    // The light run checks these pages' structure in full; here, what the scheme changes.
    await checkPages(page, testInfo, paths, [390, 1280], `dark ${locale}`, 390, { axeRules: "colours" });
  });
}

// Each role and language in two halves (phones and tablet, desktop), so four workers share them.
const HALVES = [WIDTHS.slice(0, 3), WIDTHS.slice(3)] as const;

for (const role of ["reader", "user", "admin"] as const) {
  for (const locale of LOCALES) {
    // A signed-in reader's pages change little with the width: three widths are enough.
    const groups: readonly (readonly number[])[] = role === "user" ? [[390, 1024, 1280]] : HALVES;
    for (const widths of groups) {
      test(`${role}, ${locale}: no overflow, one-row header, no cut text at ${widths.join(", ")} px`, async ({
        page,
        serverDb,
      }, testInfo) => {
        test.setTimeout(ceiling(240_000));
        const id = await showcase(serverDb.db);
        await page.emulateMedia({ colorScheme: "light" });
        await signIn(page, serverDb.db, role, `layout-${role}-${locale}`);
        const paths = pagesFor(role, locale).map((p) => p.replace("{id}", id));
        // Axe at the narrowest width of the group (320, 1024 or 390 px): on every page
        // at all six it would cost minutes; its rules rarely change with the width. From
        // 1024 px only the first page is analysed again: what the width changes there is
        // the header's one-row navigation, the same on every page; each page's own
        // content was analysed in full at 320 px.
        const desktop = (widths[0] ?? 0) >= 1024 && role !== "user";
        await checkPages(page, testInfo, paths, widths, `${role} ${locale}`, widths[0] ?? null, {
          axePages: desktop ? 1 : paths.length,
        });
      });
    }
  }
}

test("the checks can fail: a button drawn over the heading is an overlap", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/en");
  expect((await measure(page)).overlaps).toEqual([]);
  await page.evaluate(() => {
    const heading = document.querySelector("main h1, main h2");
    if (!heading) throw new Error("no heading");
    const r = heading.getBoundingClientRect();
    const button = document.createElement("button");
    button.textContent = "Stray";
    button.style.cssText = `position:absolute;left:${r.left + window.scrollX}px;top:${r.top + window.scrollY}px;width:80px;height:30px`;
    document.body.append(button);
  });
  const { overlaps } = await measure(page);
  expect(overlaps.some((o) => o.includes('button "Stray"'))).toBe(true);
});

test("the account menu opens, closes with Escape and holds the admin's links (1280 px, en and zh)", async ({
  page,
  serverDb,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signedInAdmin(page, serverDb.db, "layout-menu");
  for (const [locale, admin, logout] of [
    ["en", "Admin panel", "Logout"],
    ["zh", "管理面板", "退出登录"],
  ] as const) {
    await page.goto(`/${locale}`);
    const summary = page.getByTestId("nav-user");
    // The person's name, never the address (issue 46).
    await expect(summary).toHaveText(nameOf(email));
    const adminLink = page.getByRole("navigation").first().getByRole("link", { name: admin });
    await expect(adminLink).toBeHidden();
    await summary.click();
    await expect(adminLink).toBeVisible();
    await expect(page.getByRole("button", { name: logout })).toBeVisible();
    // Open, the menu has nothing for axe either.
    const axe = await new AxeBuilder({ page }).include('[data-testid="site-header"]').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(adminLink).toBeHidden();
    await expect(summary).toBeFocused();
    // A click elsewhere closes it too.
    await summary.click();
    await expect(adminLink).toBeVisible();
    await page.mouse.click(5, 600);
    await expect(adminLink).toBeHidden();
  }
});

test("a post at phone width with its contents opened has nothing for axe (en and zh)", async ({ page, serverDb }) => {
  const id = await showcase(serverDb.db);
  await page.setViewportSize({ width: 390, height: 800 });
  for (const locale of LOCALES) {
    await page.goto(`/${locale}/posts/detail/${id}`);
    await page.getByTestId("toc-details").locator("summary").click();
    await expect(page.getByTestId("toc-details").getByRole("navigation")).toBeVisible();
    const axe = await new AxeBuilder({ page }).include("article").analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  }
});

test("the contents: a side column from 1280 px, a closed <details> below, without JavaScript too", async ({
  browser,
  baseURL,
  serverDb,
}) => {
  const id = await showcase(serverDb.db);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/en/posts/detail/${id}`);
    const toc = page.getByRole("navigation", { name: "Table of contents" });
    await expect(toc).toBeVisible();
    await expect(page.getByTestId("toc-details")).toBeHidden();
    // Beside the text, not above it.
    const body = await page.locator("#post-body").boundingBox();
    const column = await toc.boundingBox();
    expect(column && body && column.x).toBeGreaterThan((body?.x ?? 0) + (body?.width ?? 0) - 1);

    await page.setViewportSize({ width: 390, height: 800 });
    await expect(toc).toBeHidden();
    const details = page.getByTestId("toc-details");
    await expect(details).toBeVisible();
    await expect(details).not.toHaveAttribute("open", "");
    // The first screen shows the start of the text.
    const first = await page.locator("#post-body > *").first().boundingBox();
    expect(first?.y ?? 9999).toBeLessThan(800);
    await details.locator("summary").click();
    await expect(page.getByRole("navigation", { name: "Table of contents" })).toBeVisible();

    await page.goto(`/zh/posts/detail/${id}`);
    await expect(page.getByTestId("toc-details").locator("summary")).toHaveText("目录");
  } finally {
    await context.close();
  }
});
