import path from "node:path";
import { type Page, test } from "@playwright/test";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { expect } from "./fixtures.ts";
import { linkIn, mailTo, uniqueEmail } from "./mail.ts";
import { serverFor } from "./servers.ts";

export const PASSWORD = "correct horse battery";

/**
 * The display name these test people choose: their address's local part. The header's
 * account menu shows it, never the address.
 */
export function nameOf(email: string): string {
  return email.split("@")[0] ?? "Reader";
}

/**
 * Registers through the form. The display name defaults to the address's local part:
 * the name these test people choose (older specs look for it on their comments).
 */
export async function register(page: Page, email: string, password = PASSWORD, name = nameOf(email)): Promise<void> {
  await page.goto("/register");
  await page.getByLabel("Display name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText(`we sent a link to ${email}`);
}

export async function verifyFromMail(page: Page, email: string, after?: number): Promise<void> {
  const mail = await mailTo(email, /Verify your e-mail/, after);
  await page.goto(linkIn(mail, "/verify-email"));
  await page.getByRole("button", { name: "Verify my e-mail" }).click();
  await expect(page.getByRole("status")).toHaveText("Your e-mail is verified. You can log in now.");
}

export async function login(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Opens the header's account menu (a disclosure whose summary is the signed-in person's name). */
export async function openAccountMenu(page: Page): Promise<void> {
  const summary = page.getByTestId("nav-user");
  const menu = summary.locator("xpath=..");
  // The menu closes when a navigation ends, and a page that just changed the account (a
  // verified new address) may finish its revalidation right after the click: open it
  // again until it stays open.
  await expect(async () => {
    if ((await menu.getAttribute("open")) === null) await summary.click();
    await expect(menu).toHaveAttribute("open", "", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** Signs out from the header and waits until the page says so (a goto before that may cancel it). */
export async function logout(page: Page): Promise<void> {
  // The menu can still close after it opened (the same late revalidation as above): open it
  // and click in one step, again until the click lands.
  const button = page.getByRole("button", { name: "Logout" });
  await expect(async () => {
    await openAccountMenu(page);
    await button.click({ timeout: 2_000 });
  }).toPass({ timeout: 40_000 });
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
}

/**
 * Signs up and in through better-auth's own endpoints (the rules of the form apply
 * there too), marking the address verified in the server's database instead of
 * opening the mail. For specs whose subject is not registration: the form journey
 * itself is tested by accounts.spec.ts, identity.spec.ts and toasts.spec.ts.
 */
async function fastSignIn(page: Page, email: string): Promise<void> {
  const server = serverFor(test.info().parallelIndex);
  const headers = { origin: server.url };
  const name = nameOf(email);
  const signUp = await page.request.post(`${server.url}/api/auth/sign-up/email`, {
    data: { email, password: PASSWORD, name },
    headers,
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const database = openDatabase({ dialect: "sqlite", file: path.resolve(server.dataDir, "inkwell.db") });
  try {
    const marked = await database.db
      .updateTable("users")
      .set({ emailVerified: 1 })
      .where("email", "=", email)
      .executeTakeFirst();
    expect(Number(marked.numUpdatedRows)).toBe(1);
  } finally {
    await database.close();
  }
  const signIn = await page.request.post(`${server.url}/api/auth/sign-in/email`, {
    data: { email, password: PASSWORD },
    headers,
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  await page.goto("/");
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
}

/** A registered, verified and signed-in account, all through the forms and the mail; returns its e-mail. */
export async function signedInUserByForms(page: Page, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await register(page, email);
  await verifyFromMail(page, email);
  await login(page, email);
  await expect(page.getByTestId("nav-user")).toHaveText(nameOf(email));
  return email;
}

/** A registered, verified and signed-in account; returns its e-mail. */
export async function signedInUser(page: Page, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await fastSignIn(page, email);
  return email;
}

/**
 * A registered, verified, signed-in admin with a unique e-mail (made admin
 * through the database, as the CLI would); returns its e-mail. Specs use
 * their own admins so they don't depend on each other's accounts.
 */
export async function signedInAdmin(page: Page, db: DB, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await addAdmins(db, [email], "cli");
  await fastSignIn(page, email);
  return email;
}
