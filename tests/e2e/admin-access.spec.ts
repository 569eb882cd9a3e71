import { signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// What a visitor and a reader see at the admin's doors, in both languages. That every
// admin page and action refuses them (302 to login, 401 for data requests, 403 with no
// admin data, forged posts that change nothing) is checked route by route, from the route
// table, in tests/security/admin-access.test.ts; the editor's loaders and actions in
// app/routes/posts/other-authors.test.ts.

test("a visitor is sent to the login page, and back to the admin page once signed in", async ({ page }) => {
  await page.goto("/admin/config");
  await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent("/admin/config")}`);
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
});

test("a signed-in reader sees Access denied on the admin and the editor, in English and Chinese", async ({ page }) => {
  await signedInUser(page, "not-admin");
  for (const path of ["/admin", "/admin/users", "/admin/config", "/admin/media"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access denied");
    await expect(page.getByRole("link", { name: "Admin panel" })).toHaveCount(0);
  }
  const editor = await page.goto("/posts/createPost");
  expect(editor?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admins only");
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);

  // /zh/admin chooses the language and sends the reader on to the same door.
  const zh = await page.goto("/zh/admin");
  expect(zh?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("无权访问");
  const zhEditor = await page.goto("/zh/posts/createPost");
  expect(zhEditor?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("仅限管理员");
});
