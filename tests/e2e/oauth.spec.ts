import type { Page } from "@playwright/test";
import { openAccountMenu } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { linkIn, mailTo, uniqueEmail } from "./mail.ts";

// Sign-in through the local OpenID Connect provider that `npm run test:e2e` starts
// (tests/setup/oidc-provider.ts): its page asks for the e-mail to assert and
// whether to assert it as verified.

const PASSWORD = "correct horse battery";
/** The name an account registered here chooses; the provider names new people by their address's local part. */
const OAUTH_NAME = "OAuth Reader";
const localPart = (email: string) => email.split("@")[0] ?? email;
const NOT_LINKED =
  "This e-mail already has an account here. It is linked to a provider only when the provider confirms the e-mail and the account's own e-mail is verified: log in with your password first.";
const FAILED = "Signing in with that provider did not work. Please try again.";

async function startProviderSignIn(page: Page) {
  await page.goto("/login");
  await page.getByRole("link", { name: "Continue with Test OpenID" }).click();
  await expect(page.getByRole("heading", { name: "Test OpenID provider" })).toBeVisible();
}

async function signInAtProvider(page: Page, email: string, { verified = true } = {}) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Email verified").setChecked(verified);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signInWithProvider(page: Page, email: string, options: { verified?: boolean } = {}) {
  await startProviderSignIn(page);
  await signInAtProvider(page, email, options);
}

async function register(page: Page, email: string) {
  await page.goto("/register");
  await page.getByLabel("Display name").fill(OAUTH_NAME);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText(`we sent a link to ${email}`);
}

async function verifyFromMail(page: Page, email: string) {
  const mail = await mailTo(email, /Verify your e-mail/);
  await page.goto(linkIn(mail, "/verify-email"));
  await page.getByRole("button", { name: "Verify my e-mail" }).click();
  await expect(page.getByRole("status")).toHaveText("Your e-mail is verified. You can log in now.");
}

/** The session better-auth sees for this browser context (null when signed out). */
async function serverSession(page: Page): Promise<{ user: { email: string } } | null> {
  const response = await page.request.get("/api/auth/get-session");
  expect(response.ok()).toBe(true);
  return (await response.json()) as { user: { email: string } } | null;
}

const CALLBACK = /\/api\/auth\/callback\/oidc-test\?/;
const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

test("a new user signs in with the provider, gets an account and logs out", async ({ page, serverDb }) => {
  const email = uniqueEmail("oidc-new");
  await signInWithProvider(page, email);

  await expect(page).toHaveURL(/\/$/);
  await expect(nav(page).getByTestId("nav-user")).toHaveText(localPart(email));
  expect((await serverSession(page))?.user.email).toBe(email);

  const user = await serverDb.db
    .selectFrom("users")
    .select(["id", "emailVerified"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  expect(Number(user.emailVerified)).toBe(1);
  const accounts = await serverDb.db
    .selectFrom("accounts")
    .select(["providerId", "accountId"])
    .where("userId", "=", user.id)
    .execute();
  expect(accounts).toEqual([{ providerId: "oidc-test", accountId: `verified:${email}` }]);

  await openAccountMenu(page);
  await nav(page).getByRole("button", { name: "Logout" }).click();
  await expect(nav(page).getByRole("link", { name: "Login" })).toBeVisible();
  await expect(nav(page).getByTestId("nav-user")).toHaveCount(0);
  expect(await serverSession(page)).toBeNull();
});

test("a verified local account is linked when the provider asserts the same verified e-mail", async ({
  page,
  serverDb,
}) => {
  const email = uniqueEmail("oidc-link");
  await register(page, email);
  await verifyFromMail(page, email);

  await signInWithProvider(page, email);
  await expect(page).toHaveURL(/\/$/);
  await expect(nav(page).getByTestId("nav-user")).toHaveText(OAUTH_NAME);

  // One user, now with both sign-in methods.
  const users = await serverDb.db.selectFrom("users").select("id").where("email", "=", email).execute();
  expect(users).toHaveLength(1);
  const providers = await serverDb.db
    .selectFrom("accounts")
    .select("providerId")
    .where("userId", "=", users[0]?.id ?? "")
    .orderBy("providerId")
    .execute();
  expect(providers.map((a) => a.providerId)).toEqual(["credential", "oidc-test"]);

  // The password still signs in to the same account.
  await openAccountMenu(page);
  await nav(page).getByRole("button", { name: "Logout" }).click();
  await expect(nav(page).getByRole("link", { name: "Login" })).toBeVisible();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(nav(page).getByTestId("nav-user")).toHaveText(OAUTH_NAME);
  expect((await serverSession(page))?.user.email).toBe(email);
});

test("an unverified local account is not taken over by a provider asserting its e-mail", async ({ page, serverDb }) => {
  const email = uniqueEmail("oidc-prehijack");
  await register(page, email);

  await signInWithProvider(page, email, { verified: true });
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("alert")).toHaveText(NOT_LINKED);
  await expect(nav(page).getByTestId("nav-user")).toHaveCount(0);
  expect(await serverSession(page)).toBeNull();

  const user = await serverDb.db
    .selectFrom("users")
    .select(["id", "emailVerified"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  expect(Number(user.emailVerified)).toBe(0);
  const accounts = await serverDb.db
    .selectFrom("accounts")
    .select("providerId")
    .where("userId", "=", user.id)
    .execute();
  expect(accounts.map((a) => a.providerId)).toEqual(["credential"]);
  const sessions = await serverDb.db.selectFrom("sessions").select("id").where("userId", "=", user.id).execute();
  expect(sessions).toEqual([]);
});

test("a provider that does not assert a verified e-mail is not linked to a verified account", async ({
  page,
  serverDb,
}) => {
  const email = uniqueEmail("oidc-unverified");
  await register(page, email);
  await verifyFromMail(page, email);

  await signInWithProvider(page, email, { verified: false });
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("alert")).toHaveText(NOT_LINKED);
  await expect(nav(page).getByTestId("nav-user")).toHaveCount(0);
  expect(await serverSession(page)).toBeNull();

  const user = await serverDb.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const accounts = await serverDb.db
    .selectFrom("accounts")
    .select("providerId")
    .where("userId", "=", user.id)
    .execute();
  expect(accounts.map((a) => a.providerId)).toEqual(["credential"]);
});

test("a sign-in started from the Chinese login page comes back to it with the error in Chinese", async ({ page }) => {
  const email = uniqueEmail("oidc-zh");
  await register(page, email);
  await page.goto("/zh/login");
  await page.locator('a[href^="/zh/login/provider/oidc-test"]').click();
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/zh\/login\?/);
  await expect(page.getByRole("alert")).toHaveText(
    "该邮箱在本站已有账号。只有当该服务确认了此邮箱、且账号本身的邮箱已验证时，才会关联。请先用密码登录。",
  );
  expect(await serverSession(page)).toBeNull();
});

test("a callback without a valid state signs nobody in", async ({ page }) => {
  // No state at all, then a made-up state and code.
  await page.goto("/api/auth/callback/oidc-test?code=made-up-code");
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("alert")).toHaveText(FAILED);
  expect(await serverSession(page)).toBeNull();

  await page.goto("/api/auth/callback/oidc-test?state=made-up-state&code=made-up-code");
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("alert")).toHaveText(FAILED);
  expect(await serverSession(page)).toBeNull();
});

test("a real callback URL replayed in another browser signs nobody in", async ({ page, browser, baseURL }) => {
  // Complete a sign-in at the provider but stop before the callback reaches us.
  const email = uniqueEmail("oidc-replay");
  let callbackUrl = "";
  // Playwright cannot intercept a redirect, so the test takes over at the form
  // post to the provider and follows the provider's redirects itself (with this
  // browser's cookies) until the one that points at our callback.
  await page.route(/\/interaction\/[^/]+\/login$/, async (route) => {
    let response = await route.fetch({ maxRedirects: 0 });
    for (let hop = 0; hop < 5; hop++) {
      const location = response.headers().location;
      if (!location) break;
      const next = new URL(location, response.url()).href;
      if (CALLBACK.test(next)) {
        callbackUrl = next;
        break;
      }
      response = await page.request.get(next, { maxRedirects: 0 });
    }
    await route.fulfill({ status: 200, contentType: "text/plain", body: "held back by the test" });
  });
  await startProviderSignIn(page);
  await signInAtProvider(page, email);
  await expect.poll(() => callbackUrl).toContain("code=");
  expect(new URL(callbackUrl).searchParams.get("state")).toBeTruthy();

  // Another browser (no state cookie) presents the genuine code and state.
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await otherPage.goto(callbackUrl);
  await expect(otherPage).toHaveURL(/\/login\?/);
  await expect(otherPage.getByRole("alert")).toHaveText(FAILED);
  expect(await serverSession(otherPage)).toBeNull();
  await other.close();

  // The browser that started the flow still completes it: the refusal was about the state binding.
  await page.goto(callbackUrl);
  await expect(nav(page).getByTestId("nav-user")).toHaveText(localPart(email));
});

test("without JavaScript the provider button still signs in", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const email = uniqueEmail("oidc-nojs");
  await signInWithProvider(page, email);
  await expect(nav(page).getByTestId("nav-user")).toHaveText(localPart(email));
  await context.close();
});
