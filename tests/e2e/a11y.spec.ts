import AxeBuilder from "@axe-core/playwright";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { ensureTags } from "../../app/server/taxonomy/taxonomy.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { axeFindings, rulesFor } from "./axe.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test, waitForHydrationOnGoto } from "./fixtures.ts";

const PAGES = [
  "/",
  "/posts/page/1",
  "/login",
  "/register",
  "/forgot-password",
  "/about",
  "/contact",
  "/privacy",
  "/subscribe",
  "/subscribe/confirm?token=x",
  "/unsubscribe?token=x",
  "/no/such/page",
];

for (const locale of ["en", "zh"] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`axe finds no violations (${locale}, ${theme})`, async ({ page }) => {
      // Nine pages, each fully analysed: more than one ordinary test's worth of time.
      test.setTimeout(ceiling(120_000));
      await page.emulateMedia({ colorScheme: theme });
      for (const path of PAGES) {
        await page.goto(`/${locale}${path === "/" ? "" : path}`);
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
        // In full in the light scheme; in the dark one, what a scheme can change (tests/e2e/axe.ts).
        expect(await axeFindings(page, { rules: rulesFor(theme) }), `${locale} ${theme} ${path}`).toEqual([]);
      }
    });
  }
}

// Lighthouse (mobile, 412 px) runs axe's target-size rule, which axe leaves off by default.
// The small tag links under each post card were 17 px lines of text 8 px apart; a Chinese
// tag name (a narrower "#") next to a Latin one brought their spacing under 24 px.
test("tag links on a phone are 24 px tap targets, on home and post, in English and Chinese", async ({
  browser,
  baseURL,
  serverDb,
}) => {
  const run = Date.now().toString(36);
  const { db } = serverDb;
  const [tooling = "", latin = ""] = await ensureTags(db, [`Tap ${run} A`, `Tap ${run} TypeScript`]);
  await db.updateTable("tags").set({ nameZh: "工具链" }).where("id", "=", tooling).execute();
  const id = await createPost(db, {
    slug: `tap-${run}`,
    authorId: null,
    status: "published",
    publishedAt: new Date(Date.now() - 60_000).toISOString(),
    tagIds: [tooling, latin],
    translations: [
      { locale: "en", title: `Tap targets ${run}`, summary: "Tags below.", bodyHtml: "<p>Words.</p>" },
      { locale: "zh", title: `点击区域 ${run}`, summary: "标签在下面。", bodyHtml: "<p>文字。</p>" },
    ],
  });
  const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 }, hasTouch: true });
  try {
    const page = await context.newPage();
    for (const prefix of ["/en", "/zh"]) {
      for (const path of [prefix, `${prefix}/posts/detail/${id}`]) {
        await page.goto(path);
        const tagLinks = page.locator(`a[href^="${prefix}/tags/tap-${run}-"]`);
        await expect(tagLinks).toHaveCount(2);
        for (const box of await Promise.all((await tagLinks.all()).map((link) => link.boundingBox()))) {
          expect(box?.height, path).toBeGreaterThanOrEqual(24);
        }
        const results = await new AxeBuilder({ page }).withRules(["target-size"]).analyze();
        const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        expect(summary, path).toEqual([]);
      }
    }
  } finally {
    await context.close();
    // Other files share this server's database (home.spec.ts wants a blog with no post).
    await db.deleteFrom("posts").where("id", "=", id).execute();
    await db.deleteFrom("tags").where("id", "in", [tooling, latin]).execute();
  }
});

// The writing screen (issue 47), as Lighthouse's mobile run sees it (412 px, target-size on):
// the text with its toolbar, the settings sheet open, and the publish dialog open, in both
// languages. editor.spec.ts checks the editor pages at desktop width in both themes.
test("the writing screen on a phone, with its settings and its publish dialog open, in English and Chinese", async ({
  browser,
  baseURL,
  serverDb,
}) => {
  test.setTimeout(ceiling(120_000));
  const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 }, hasTouch: true });
  context.on("page", waitForHydrationOnGoto);
  const page = await context.newPage();
  const email = await signedInAdmin(page, serverDb.db, "a11y-writing");
  const check = async (where: string) => {
    // Every rule axe runs by default, and the target-size rule it leaves off.
    const results = await new AxeBuilder({ page })
      .exclude("[data-testid=site-header]")
      .options({ rules: { "target-size": { enabled: true } } })
      .analyze();
    const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(summary, where).toEqual([]);
  };
  try {
    for (const [locale, ui] of [
      ["en", { settings: "Settings", close: "Close settings", publish: "Publish…", cancel: "Cancel" }],
      ["zh", { settings: "设置", close: "关闭设置", publish: "发布…", cancel: "取消" }],
    ] as const) {
      await page.goto(`/${locale}/posts/createPost`);
      await expect(page.getByRole("tabpanel").locator(".cm-content")).toBeVisible();
      await check(`${locale} writing`);
      await page.locator("[data-editor-bar]").getByRole("button", { name: ui.settings, exact: true }).click();
      const sheet = page.getByRole("dialog", { name: ui.settings });
      await expect(sheet.getByRole("button", { name: ui.close })).toBeFocused();
      await check(`${locale} settings sheet`);
      await sheet.getByRole("button", { name: ui.close }).click();
      await page.getByRole("button", { name: ui.publish }).click();
      const dialog = page.getByTestId("publish-dialog");
      await expect(dialog).toBeVisible();
      await check(`${locale} publish dialog`);
      await dialog.getByRole("button", { name: ui.cancel }).click();
      await expect(dialog).toBeHidden();
    }
  } finally {
    await context.close();
    const author = serverDb.db.selectFrom("users").select("id").where("email", "=", email);
    await serverDb.db.deleteFrom("posts").where("authorId", "in", author).execute();
  }
});
