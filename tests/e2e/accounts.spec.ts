import { login, nameOf, openAccountMenu, PASSWORD, register, verifyFromMail } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { linkIn, mailTo, uniqueEmail } from "./mail.ts";

test("register, verify by mail, log in, log out", async ({ page }) => {
  const email = uniqueEmail("alice");
  await register(page, email);

  // Before verification the account cannot sign in, and a fresh link is mailed.
  const attempted = Date.now();
  await login(page, email);
  await expect(page.getByRole("alert")).toHaveText("Please verify your e-mail first. We sent you a new link.");
  await mailTo(email, /Verify your e-mail/, attempted);

  await verifyFromMail(page, email);
  await login(page, email);
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByTestId("nav-user")).toHaveText(nameOf(email));
  await expect(nav.getByRole("link", { name: "Login" })).toHaveCount(0);

  await openAccountMenu(page);
  await nav.getByRole("button", { name: "Logout" }).click();
  await expect(nav.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(nav.getByTestId("nav-user")).toHaveCount(0);
  // The session is gone on the server too: a reload stays signed out.
  await page.reload();
  await expect(nav.getByRole("link", { name: "Register" })).toBeVisible();
});

test("a wrong password and an unknown e-mail get the same message", async ({ page }) => {
  const email = uniqueEmail("bob");
  await register(page, email);
  await verifyFromMail(page, email);

  await login(page, email, "not the password");
  const wrongPassword = await page.getByRole("alert").textContent();
  await login(page, uniqueEmail("nobody"), "not the password");
  const unknown = await page.getByRole("alert").textContent();
  expect(wrongPassword).toBe("Invalid e-mail or password.");
  expect(unknown).toBe(wrongPassword);
});

test("the forms check their fields in the browser with the server's rules", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  let posted = false;
  page.on("request", (r) => {
    if (r.method() === "POST") posted = true;
  });
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(page.getByText("The password needs at least 8 characters.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  expect(posted).toBe(false);
});

test("without JavaScript the server answers the same field errors", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/register");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(page.getByText("The password needs at least 8 characters.")).toBeVisible();
  await context.close();
});

test("reset a forgotten password by mail; the old password stops working", async ({ page }) => {
  const email = uniqueEmail("carol");
  await register(page, email);
  await verifyFromMail(page, email);

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  // The login page has an Email field too: fill only once the new page is there.
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole("button", { name: "Send the link" }).waitFor();
  await page.getByLabel("Email").fill(email);
  const asked = Date.now();
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText(`If an account exists for ${email}`);

  const mail = await mailTo(email, /Reset your/, asked);
  await page.goto(linkIn(mail, "/reset-password"));
  await page.getByLabel("New password", { exact: true }).fill("a brand new secret");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password was changed");

  // The link is single use.
  await page.goto(linkIn(mail, "/reset-password"));
  await page.getByLabel("New password", { exact: true }).fill("yet another secret");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("alert")).toHaveText("This link is invalid or has expired. Ask for a new one.");

  await login(page, email, PASSWORD);
  await expect(page.getByRole("alert")).toHaveText("Invalid e-mail or password.");
  await login(page, email, "a brand new secret");
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
});

test("registering an address that already has an account looks the same and mails its owner", async ({ page }) => {
  const email = uniqueEmail("dave");
  await register(page, email);
  const again = Date.now();
  await register(page, email, "another password here");
  const mail = await mailTo(email, /already have/, again);
  expect(mail.text).toContain("/forgot-password");
});

test("the sign-in pages answer at /Login, /Register and under /zh in Chinese", async ({ page }) => {
  await page.goto("/Login");
  await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  await page.goto("/Register");
  await expect(page.getByRole("heading", { level: 1, name: "Register" })).toBeVisible();
  await page.goto("/zh/login");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByLabel("邮箱")).toBeVisible();
  await expect(page.getByLabel("密码")).toBeVisible();
  await expect(page.getByRole("button", { name: "登录" })).toBeVisible();
  await page.goto("/zh/register");
  await expect(page.getByRole("heading", { level: 1, name: "注册" })).toBeVisible();
});

test("a GET to /logout signs nobody out", async ({ page }) => {
  const email = uniqueEmail("erin");
  await register(page, email);
  await verifyFromMail(page, email);
  await login(page, email);
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
  await page.goto("/logout");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
});
