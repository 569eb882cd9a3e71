import { login, logout, nameOf, openAccountMenu, PASSWORD, signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { linkIn, mailTo, uniqueEmail } from "./mail.ts";

test("/account needs a session and sends visitors to log in first", async ({ page }) => {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
});

test("changing the password asks the current one and signs out the other sessions", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = await signedInUser(page, "pw");
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await login(otherPage, email);
  await expect(otherPage.getByTestId("nav-user")).toHaveText(nameOf(email));

  await openAccountMenu(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByText("You are signed in on 2 devices or browsers.")).toBeVisible();
  const section = page.getByRole("region", { name: "Change password" });
  await section.getByLabel("Current password").fill("not my password");
  await section.getByLabel("New password").fill("my new password 2");
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByText("The current password is not correct.")).toBeVisible();

  await section.getByLabel("Current password").fill(PASSWORD);
  await section.getByLabel("New password").fill("my new password 2");
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByRole("status")).toHaveText(
    "Your password was changed. Your other sessions were signed out.",
  );
  // This browser stays signed in; the other one is out.
  await page.reload();
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
  await otherPage.reload();
  await expect(otherPage.getByTestId("nav-user")).toHaveCount(0);
  await login(otherPage, email, "my new password 2");
  await expect(otherPage.getByTestId("nav-user")).toHaveText(nameOf(email));
  await other.close();
});

test("signing out the other sessions", async ({ page, browser, baseURL }) => {
  const email = await signedInUser(page, "sessions");
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await login(otherPage, email);
  await expect(otherPage.getByTestId("nav-user")).toHaveText(nameOf(email));

  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  await expect(page.getByText("Your other sessions were signed out.")).toBeVisible();
  await expect(page.getByText("You are signed in on 1 device or browser.")).toBeVisible();
  await otherPage.reload();
  await expect(otherPage.getByTestId("nav-user")).toHaveCount(0);
  await other.close();
});

test("changing the e-mail: the old address approves, the new one verifies", async ({ page }) => {
  const email = await signedInUser(page, "old");
  const newEmail = uniqueEmail("new");
  await page.goto("/account");
  const section = page.getByRole("region", { name: "Change e-mail" });
  await section.getByLabel("New e-mail").fill(newEmail);
  const asked = Date.now();
  await section.getByRole("button", { name: "Change e-mail" }).click();
  await expect(section.getByRole("status")).toContainText(`current address ${email}`);

  const approve = await mailTo(email, /Confirm the change/, asked);
  expect(approve.text).toContain(newEmail);
  await page.goto(linkIn(approve, "/verify-email"));
  await page.getByRole("button", { name: "Verify my e-mail" }).click();
  await expect(page.getByRole("status")).toBeVisible();

  // Not a sign-up mail: it says the address is being attached to an existing account (issue 19).
  const verify = await mailTo(newEmail, /for the .+ account of/, asked);
  expect(verify.text).toContain("which already exists");
  await page.goto(linkIn(verify, "/verify-email"));
  await page.getByRole("button", { name: "Verify my e-mail" }).click();
  await expect(page.getByRole("status")).toHaveText("Your e-mail is verified. You can log in now.");

  await logout(page);
  await login(page, newEmail);
  // The same account, under its new address: the header still shows its name.
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
  await logout(page);
  await login(page, email);
  await expect(page.getByRole("alert")).toHaveText("Invalid e-mail or password.");
});

test("deleting the account needs the password and the word DELETE", async ({ page }) => {
  const email = await signedInUser(page, "delete");
  await page.goto("/account");
  const section = page.getByRole("region", { name: "Delete account" });
  await section.getByLabel("Password").fill(PASSWORD);
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(section.getByText("Type DELETE in capitals to confirm.")).toBeVisible();

  await section.getByLabel("Password").fill("wrong password");
  await section.getByLabel("Type DELETE to confirm").fill("DELETE");
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(section.getByText("The current password is not correct.")).toBeVisible();

  await section.getByLabel("Password").fill(PASSWORD);
  await section.getByLabel("Type DELETE to confirm").fill("DELETE");
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  await login(page, email);
  await expect(page.getByRole("alert")).toHaveText("Invalid e-mail or password.");
});

test("the only sign-in method cannot be removed", async ({ page }) => {
  await signedInUser(page, "methods");
  await page.goto("/account");
  const section = page.getByRole("region", { name: "Sign-in methods" });
  await expect(section.getByText("E-mail and password")).toBeVisible();
  await expect(section.getByText("This is your only sign-in method, so it cannot be removed.")).toBeVisible();
  await expect(section.getByRole("button", { name: /Unlink/ })).toHaveCount(0);
});
