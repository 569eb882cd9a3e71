import { login, nameOf, openAccountMenu, signedInUser, signedInUserByForms } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { holdToastTimers, releaseToastTimers } from "./toast-clock.ts";

test("signing in and out shows a toast that closes by itself after 5 s or on a click", async ({ page }) => {
  await holdToastTimers(page);
  await signedInUserByForms(page, "toast");
  const toasts = page.locator(".Toastify");
  const welcome = toasts.getByText("Welcome back.");
  await expect(welcome).toBeVisible();
  // With JavaScript the message is a toast, not the server-rendered line.
  await expect(page.getByTestId("flash-message")).toHaveCount(0);
  await welcome.click();
  await expect(welcome).toBeHidden();

  await openAccountMenu(page);
  await page.getByRole("button", { name: "Logout" }).click();
  const signedOut = toasts.getByText("You have been signed out.");
  await expect(signedOut).toBeVisible();
  // Its 5 s start now.
  await releaseToastTimers(page);
  const shown = Date.now();
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(page.getByTestId("flash-message")).toHaveCount(0);
  // Move the pointer away: hovering would pause the timer.
  await page.mouse.move(0, 400);
  await expect(signedOut).toBeHidden({ timeout: 15_000 });
  expect(Date.now() - shown).toBeGreaterThanOrEqual(4_500);

  // One-time: the next page load shows it no more.
  await page.reload();
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(toasts.getByText("You have been signed out.")).toHaveCount(0);
});

test("the toast container follows the spec's options", async ({ page }) => {
  await holdToastTimers(page);
  await signedInUserByForms(page, "toastopts");
  const container = page.locator(".Toastify__toast-container");
  await expect(container).toHaveClass(/Toastify__toast-container--top-right/);
  const toast = page.locator(".Toastify__toast").filter({ hasText: "Welcome back." });
  await expect(toast).toHaveAttribute("role", "status");
  await expect(toast.getByRole("button", { name: "Close" })).toBeVisible();
  // Below the header, never over the account menu (a resting pointer would pause it).
  const header = await page.getByTestId("site-header").boundingBox();
  const box = await toast.boundingBox();
  expect(box?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
  await toast.getByRole("button", { name: "Close" }).click();
  await expect(toast).toBeHidden();
});

test("without JavaScript the flash message is a status line in the page", async ({ page, browser }) => {
  const email = await signedInUser(page, "nojs");
  await openAccountMenu(page);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();

  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const plain = await context.newPage();
    await login(plain, email);
    await expect(plain.getByTestId("nav-user")).toHaveText(nameOf(email));
    await expect(plain.getByRole("status")).toHaveText("Welcome back.");

    await openAccountMenu(plain);
    await plain.getByRole("button", { name: "Logout" }).click();
    await expect(plain.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(plain.getByRole("status")).toHaveText("You have been signed out.");

    // Shown once: the cookie was cleared with the page that showed it.
    await plain.reload();
    await expect(plain.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(plain.getByTestId("flash-message")).toHaveCount(0);
    expect((await context.cookies()).map((c) => c.name)).not.toContain("inkwell.flash");
  } finally {
    await context.close();
  }
});

test("a tampered flash cookie shows nothing", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "inkwell.flash", value: "eyJrIjoieCJ9.forged", url: baseURL ?? "" }]);
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByTestId("flash-message")).toHaveCount(0);
  await expect(page.locator(".Toastify__toast")).toHaveCount(0);
  expect((await context.cookies()).map((c) => c.name)).not.toContain("inkwell.flash");
});

test("toasts follow the dark theme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await holdToastTimers(page);
  await signedInUserByForms(page, "toastdark");
  const toast = page.locator(".Toastify__toast").filter({ hasText: "Welcome back." });
  await expect(toast).toHaveClass(/Toastify__toast-theme--dark/);
});
