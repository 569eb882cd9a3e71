import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { DEFAULT_SETTINGS, updateSiteSettings } from "../../app/server/site/site-settings.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { uniqueEmail } from "./mail.ts";

test.describe.configure({ mode: "serial" });

const CLOSED = "Registration is closed: this blog is not accepting new accounts right now.";
const createdPosts: string[] = [];

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: the settings go back to the defaults, our posts go.
  await updateSiteSettings(serverDb.db, DEFAULT_SETTINGS);
  if (createdPosts.length > 0) {
    await serverDb.db.deleteFrom("postTranslations").where("postId", "in", createdPosts).execute();
    await serverDb.db.deleteFrom("posts").where("id", "in", createdPosts).execute();
  }
});

const saved = (page: Page) =>
  expect(page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: "Saved." }).first()).toBeVisible();

test("an admin renames the site, rewrites the about text and paging, and the public site follows", async ({
  page,
  serverDb,
}) => {
  test.slow();
  for (let i = 1; i <= 2; i++) {
    createdPosts.push(
      await createPost(serverDb.db, {
        slug: `config-per-page-${i}-${Date.now()}`,
        authorId: null,
        status: "published",
        publishedAt: new Date(Date.UTC(2021, 0, i)).toISOString(),
        translations: [{ locale: "en", title: `Config paging ${i}` }],
      }),
    );
  }
  const email = await signedInAdmin(page, serverDb.db, "config-admin");
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin panel" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/admin\/config$/);
  await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { level: 1, name: "Site settings" })).toBeVisible();
  for (const legend of ["Name and description", "Footer", "Reading and comments", "Accounts"]) {
    await expect(page.getByRole("group", { name: legend })).toBeVisible();
  }
  // About, Contact and Privacy are pages now (decision 035): the settings lead there.
  await expect(page.getByRole("main").getByRole("link", { name: "Open Pages" })).toHaveAttribute(
    "href",
    "/admin/pages",
  );
  await expect(page.getByLabel("Site name (English)")).toHaveValue("Inkwell");

  // Field errors from the shared schema, in the browser.
  await page.getByLabel("Site name (English)").fill("");
  await page.getByLabel("Posts per page").fill("51");
  await page.getByLabel("X (Twitter)").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Give the site a name.")).toBeVisible();
  await expect(page.getByText("Use a whole number from 1 to 50.")).toBeVisible();
  await expect(page.getByText("Use an http:// or https:// address, or leave it empty.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/config$/);

  // The action runs the same schema: a 400 that keeps what was typed (as without JavaScript),
  // and leaves the stored value as it was (a first attempt on this server may have saved one).
  const storedPerPage = () =>
    serverDb.db.selectFrom("siteSettings").select("value").where("key", "=", "postsPerPage").executeTakeFirst();
  const perPageBefore = await storedPerPage();
  const origin = new URL(page.url()).origin;
  const form = await page.evaluate(() => {
    const data = new FormData(document.querySelector("main form") as HTMLFormElement);
    return Object.fromEntries([...data.entries()].map(([k, v]) => [k, String(v)]));
  });
  const bad = await page.request.post("/admin/config", {
    form: { ...form, siteNameEn: "Typed name", postsPerPage: "0" },
    headers: { Origin: origin },
  });
  expect(bad.status()).toBe(400);
  const badHtml = await bad.text();
  expect(badHtml).toContain("Use a whole number from 1 to 50.");
  expect(badHtml).toContain('value="Typed name"');
  expect(await storedPerPage()).toEqual(perPageBefore);

  // A valid save.
  const auditBefore = await serverDb.db
    .selectFrom("auditLog")
    .select("id")
    .where("action", "=", "settings.update")
    .execute();
  await page.getByLabel("Site name (English)").fill("Config Test Blog");
  await page.getByLabel("Site name (中文)").fill("配置测试博客");
  await page.getByLabel("About text (English)").fill("Footnotes about settings.");
  await page.getByLabel("About text (中文)").fill("关于设置的脚注。");
  await page.getByLabel("Posts per page").fill("1");
  await page.getByLabel("X (Twitter)").fill("");
  await page.getByLabel("Social image").fill("https://cdn.example.test/og.png");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page).toHaveURL(/\/admin\/config$/);
  await saved(page);
  await expect(page.getByLabel("Site name (English)")).toHaveValue("Config Test Blog");

  // One audit entry naming the changed keys, by this admin.
  const entries = await serverDb.db
    .selectFrom("auditLog")
    .select(["actorEmail", "details", "entityType"])
    .where("action", "=", "settings.update")
    .execute();
  expect(entries).toHaveLength(auditBefore.length + 1);
  const entry = entries.find((e) => e.actorEmail === email);
  expect(entry?.entityType).toBe("settings");
  const details = JSON.parse(entry?.details ?? "{}") as { keys: string[] };
  expect([...details.keys].sort()).toEqual(
    ["aboutText.en", "aboutText.zh", "postsPerPage", "siteName.en", "siteName.zh", "socialImage"].sort(),
  );
  expect(entry?.details).not.toContain("Footnotes");

  // The public site, in each language, without a restart.
  await page.goto("/en");
  await expect(page).toHaveTitle("Config Test Blog");
  await expect(page.getByRole("contentinfo").getByText("Footnotes about settings.")).toBeVisible();
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", "https://cdn.example.test/og.png");
  await page.goto("/zh");
  await expect(page).toHaveTitle("配置测试博客");
  await expect(page.getByRole("contentinfo").getByText("关于设置的脚注。")).toBeVisible();
  await page.goto("/en/posts/page/1");
  await expect(page.getByRole("main").getByRole("article")).toHaveCount(1);
  await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
});

test("the admin answers under /zh and /en in that language, and filing numbers reach the footer", async ({
  page,
  serverDb,
}) => {
  await signedInAdmin(page, serverDb.db, "config-filing");
  // A prefixed admin address goes to the admin, which then speaks the prefix's language.
  await page.goto("/zh/admin/config");
  await expect(page).toHaveURL(/\/admin\/config$/);
  await expect(page.getByRole("heading", { level: 1, name: "站点设置" })).toBeVisible();
  await page.goto("/en/admin");
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/config");
  await expect(page.getByRole("heading", { level: 1, name: "Site settings" })).toBeVisible();

  await page.getByLabel("ICP filing number").fill("京ICP备12345678号-1");
  await page.getByLabel("Public security filing number").fill("京公网安备号");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByLabel("Public security filing number")).toHaveAccessibleDescription(
    /holds the record's digits/,
  );
  await page.getByLabel("Public security filing number").fill("京公网安备 11010502030143号");
  await page.getByRole("button", { name: "Save settings" }).click();
  await saved(page);

  await page.goto("/zh");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "京ICP备12345678号-1" })).toHaveAttribute(
    "href",
    "https://beian.miit.gov.cn/",
  );
  await expect(footer.getByRole("link", { name: "京公网安备 11010502030143号" })).toHaveAttribute(
    "href",
    "https://beian.mps.gov.cn/#/query/webSearch?code=11010502030143",
  );
});

test("closed registration refuses /register, the sign-up API and a provider's first sign-in", async ({
  page,
  browser,
  serverDb,
}) => {
  test.slow();
  await signedInAdmin(page, serverDb.db, "config-reg-admin");
  await page.goto("/admin/config");
  await page.getByLabel("Registration open").uncheck();
  await page.getByRole("button", { name: "Save settings" }).click();
  await saved(page);
  await expect(page.getByLabel("Registration open")).not.toBeChecked();

  const visitor = await browser.newContext();
  try {
    const anon = await visitor.newPage();
    await anon.goto("/register");
    await expect(anon.getByRole("alert")).toContainText(CLOSED);
    await expect(anon.getByLabel("Password")).toHaveCount(0);
    await anon.goto("/zh/register");
    await expect(anon.getByRole("alert")).toContainText("注册已关闭");

    const origin = new URL(anon.url()).origin;
    const email = uniqueEmail("config-closed");
    const form = await anon.request.post("/register", {
      form: { email, password: "correct horse battery" },
      headers: { Origin: origin },
    });
    expect(form.status()).toBe(403);
    const api = await anon.request.post("/api/auth/sign-up/email", {
      data: { email, password: "correct horse battery", name: "x" },
      headers: { Origin: origin },
    });
    expect(api.status()).toBe(403);
    expect(((await api.json()) as { code?: string }).code).toBe("REGISTRATION_CLOSED");

    // A first sign-in with a provider would create an account: refused too.
    const oauthEmail = uniqueEmail("config-closed-oidc");
    await anon.goto("/en/login");
    await anon.getByRole("link", { name: "Continue with Test OpenID" }).click();
    await expect(anon.getByRole("heading", { name: "Test OpenID provider" })).toBeVisible();
    await anon.getByLabel("Email", { exact: true }).fill(oauthEmail);
    await anon.getByLabel("Email verified").setChecked(true);
    await anon.getByRole("button", { name: "Sign in" }).click();
    await expect(anon).toHaveURL(/\/login\?/);
    await expect(anon.getByRole("alert")).toContainText(CLOSED);

    const users = await serverDb.db
      .selectFrom("users")
      .select("id")
      .where("email", "in", [email, oauthEmail])
      .execute();
    expect(users).toEqual([]);
  } finally {
    await visitor.close();
  }

  // Open again: /register shows its form.
  await page.getByLabel("Registration open").check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await saved(page);
  const again = await browser.newContext();
  try {
    const anon = await again.newPage();
    await anon.goto("/register");
    await expect(anon.getByLabel("Password")).toBeVisible();
  } finally {
    await again.close();
  }
});

test("the settings page passes axe, also showing field errors", async ({ page, serverDb }) => {
  await signedInAdmin(page, serverDb.db, "config-axe-admin");
  await page.goto("/admin/config");
  const check = async (label: string) => {
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  };
  await check("/admin/config");
  await page.getByLabel("Site name (中文)").fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Give the site a name.")).toBeVisible();
  await check("/admin/config with errors");
});
