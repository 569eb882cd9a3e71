import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { requestSubscription } from "../../app/server/newsletter/subscribers.server.ts";
import { login, nameOf, register, signedInAdmin, signedInUser } from "./account-helpers.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";
import { mailTo, uniqueEmail } from "./mail.ts";

test.describe.configure({ mode: "serial" });

const created: string[] = [];

test.afterAll(async ({ serverDb }) => {
  // Other files share this database (the dashboard counts subscribers).
  if (created.length) await serverDb.db.deleteFrom("subscribers").where("email", "in", created).execute();
});

const saved = (page: Page, text: string) =>
  expect(page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: text }).first()).toBeVisible();

const userRow = (page: Page, email: string) =>
  page.getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) });

/** Opens a user row's "More" menu (ban, resend, delete wait there; the admin toggle stays in sight). */
async function openMore(page: Page, email: string): Promise<void> {
  const menu = userRow(page, email).locator("details");
  if (!(await menu.evaluate((el) => (el as HTMLDetailsElement).open)))
    await menu.getByLabel(`More actions: ${email}`).click();
}

test("an admin grants and revokes admin, bans and unbans, resends verification and deletes a user", async ({
  page,
  browser,
  serverDb,
}) => {
  // A long journey: three accounts, two browsers, mail (the machine is loaded).
  test.setTimeout(ceiling(300_000));
  const adminEmail = await signedInAdmin(page, serverDb.db, "users-admin");
  const origin = new URL(page.url()).origin;

  // The user being managed, signed in in another browser.
  const other = await browser.newContext({ baseURL: origin });
  const otherPage = await other.newPage();
  const userEmail = await signedInUser(otherPage, "users-target");

  await page.goto("/admin");
  await page.getByRole("link", { name: "Users", exact: true }).click();
  await expect(page.getByRole("link", { name: "Users", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByLabel("Search by e-mail or name").fill(userEmail);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\?q=/);
  const row = userRow(page, userEmail);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Password");
  await expect(row.getByRole("cell").nth(3)).toHaveText("No"); // admin column
  // No ban or delete for oneself.
  await page.goto(`/admin/users?q=${encodeURIComponent(adminEmail)}`);
  await expect(page.getByRole("button", { name: `Ban: ${adminEmail}` })).toHaveCount(0);
  await expect(page.getByRole("link", { name: `Delete: ${adminEmail}` })).toHaveCount(0);

  // Grant, then revoke.
  await page.goto(`/admin/users?q=${encodeURIComponent(userEmail)}`);
  await page.getByRole("button", { name: `Make admin: ${userEmail}` }).click();
  await saved(page, "Saved.");
  await expect(row.getByRole("cell").nth(3)).toHaveText("Yes");
  await otherPage.goto("/admin");
  await expect(otherPage.getByRole("navigation", { name: "Admin panel" })).toBeVisible();
  await page.getByRole("button", { name: `Revoke admin: ${userEmail}` }).click();
  await expect(row.getByRole("cell").nth(3)).toHaveText("No");
  expect((await otherPage.goto("/admin"))?.status()).toBe(403);

  // Ban: the other browser is signed out at once and cannot sign in again.
  await openMore(page, userEmail);
  await page.getByRole("button", { name: `Ban: ${userEmail}` }).click();
  await expect(row).toContainText("Banned");
  await otherPage.goto("/");
  await expect(otherPage.getByTestId("nav-user")).toHaveCount(0);
  await login(otherPage, userEmail);
  await expect(otherPage.getByRole("alert")).toContainText("This account is banned.");
  await expect(otherPage.getByTestId("nav-user")).toHaveCount(0);

  // Unban: they can sign in again.
  await openMore(page, userEmail);
  await page.getByRole("button", { name: `Unban: ${userEmail}` }).click();
  await expect(row).toContainText("Active");
  await login(otherPage, userEmail);
  await expect(otherPage.getByTestId("nav-user")).toHaveText(nameOf(userEmail));
  await page.reload();
  await expect(row.getByRole("cell").nth(5)).not.toHaveText("Never"); // last sign-in

  // Resend the verification e-mail to someone who never clicked theirs.
  const third = await browser.newContext({ baseURL: origin });
  const unverified = uniqueEmail("users-unverified");
  await register(await third.newPage(), unverified);
  await third.close();
  const before = Date.now();
  await page.goto(`/admin/users?q=${encodeURIComponent(unverified)}`);
  await expect(userRow(page, unverified).getByRole("cell").nth(1)).toHaveText("No"); // verified column
  await expect(page.getByRole("button", { name: `Make admin: ${unverified}` })).toHaveCount(0);
  await openMore(page, unverified);
  await page.getByRole("button", { name: `Resend verification: ${unverified}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "A new verification e-mail is on its way." })).toBeVisible();
  const mail = await mailTo(unverified, /Verify your e-mail/, before);
  expect(mail.text).toContain("/verify-email");

  // Delete asks first; the account is gone and its session with it.
  await page.goto(`/admin/users?q=${encodeURIComponent(userEmail)}`);
  await openMore(page, userEmail);
  await page.getByRole("link", { name: `Delete: ${userEmail}` }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(`Delete the account of ${userEmail}?`);
  await confirm.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await openMore(page, userEmail);
  await page.getByRole("link", { name: `Delete: ${userEmail}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await saved(page, "Deleted.");
  await expect(row).toHaveCount(0);
  await otherPage.goto("/");
  await expect(otherPage.getByTestId("nav-user")).toHaveCount(0);
  await other.close();

  // Every change is in the audit log.
  await page.goto("/admin");
  const log = page.getByRole("table");
  for (const action of ["user.grantAdmin", "user.revokeAdmin", "user.ban", "user.unban", "user.delete"]) {
    await expect(log.getByText(action).first()).toBeVisible();
  }
});

test("an admin filters subscribers and downloads them as CSV", async ({ page, serverDb }) => {
  const tag = `subs${Date.now().toString(36)}`;
  const pending = `${tag}-pending@example.test`;
  const formula = `=${tag}-formula@example.test`;
  created.push(pending, formula);
  await requestSubscription(serverDb.db, { email: pending, locale: "en" });
  await requestSubscription(serverDb.db, { email: formula, locale: "zh" });
  await serverDb.db
    .updateTable("subscribers")
    .set({ status: "confirmed", confirmedAt: new Date().toISOString(), languages: "zh" })
    .where("email", "=", formula)
    .execute();

  await signedInAdmin(page, serverDb.db, "subs-admin");
  await page.goto("/admin/subscribers");
  await expect(page.getByRole("link", { name: "Subscribers", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByLabel("Search by e-mail").fill(tag);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("2 subscribers")).toBeVisible();
  await page.getByLabel("Status").selectOption("confirmed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=confirmed/);
  await expect(page.getByText("1 subscriber", { exact: true })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("Confirmed");
  await expect(page.getByRole("row", { name: new RegExp(tag) })).toContainText("Chinese");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync(await download.path(), "utf8");
  const lines = text.trimEnd().split("\r\n");
  expect(lines[0]).toBe("email,status,locale,createdAt,confirmedAt,languages,bounceCount,bouncedAt");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(new RegExp(`^'=${tag}-formula@example\\.test,confirmed,zh,\\d{4}-`));
  expect(lines[1]).toMatch(/,zh,0,$/);

  const all = await page.request.get(`/admin/subscribers.csv?q=${tag}`);
  expect(all.headers()["content-disposition"]).toMatch(/^attachment; filename="subscribers-/);
  expect(all.headers()["content-type"]).toContain("text/csv");
  const body = await all.text();
  expect(body).toContain(`${pending},pending,en,`);
  expect(body).toContain(`'=${tag}-formula`);
});

test("the users and subscribers pages pass axe", async ({ page, serverDb }) => {
  test.slow();
  const email = await signedInAdmin(page, serverDb.db, "users-axe");
  const other = await serverDb.db.selectFrom("users").select("id").where("email", "!=", email).executeTakeFirst();
  const paths = ["/admin/users", "/admin/subscribers"];
  if (other) paths.push(`/admin/users?confirmDelete=${other.id}`);
  for (const path of paths) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});
