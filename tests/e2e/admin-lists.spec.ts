import { createPost } from "../../app/server/posts/posts.server.ts";
import { createLink } from "../../app/server/site/links.server.ts";
import { insertComment, insertUser } from "../setup/fixtures-db.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

const TAG = `lists-${Date.now()}`;
const LONG_EMAIL = `${TAG}.a.rather.long.mailbox.name@department.example-university.edu.cn`;

test.afterAll(async ({ serverDb }) => {
  await serverDb.db.deleteFrom("links").where("name", "like", "E2E lists %").execute();
  await serverDb.db.deleteFrom("posts").where("slug", "like", `${TAG}-%`).execute();
});

test("comment moderation at 390 px: cards, readable e-mails, no clipped actions, select-all for bulk", async ({
  page,
  serverDb,
}) => {
  const { db } = serverDb;
  await page.setViewportSize({ width: 390, height: 800 });
  await signedInAdmin(page, db, "lists-admin");
  const reader = await insertUser(db, { email: LONG_EMAIL });
  const postId = await createPost(db, {
    slug: `${TAG}-post`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-02T00:00:00.000Z",
    translations: [{ locale: "en", title: `${TAG} Post` }],
  });
  const ids: string[] = [];
  for (const word of ["one", "two", "three"]) {
    ids.push(await insertComment(db, { postId, authorId: reader, body: `${TAG} comment ${word}` }));
  }

  await page.goto(`/admin/comments?q=${TAG}`);
  const table = page.getByRole("table");
  // Below 768 px each comment is a card: nothing scrolls sideways, neither the page nor the table.
  const box = table.locator("xpath=..");
  expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  // Every action is reachable and none cuts its text ("Ban auth…"): the rest wait under "More".
  const card = page.getByRole("row", { name: new RegExp(`${TAG} comment one`) });
  await card.locator("details summary").click();
  await expect(card.getByRole("button", { name: `Ban author ${LONG_EMAIL}` })).toBeVisible();
  const clipped = await page.getByRole("main").evaluate((main) =>
    [...main.querySelectorAll<HTMLElement>("button, summary, a.rounded-md")]
      .filter((el) => el.checkVisibility())
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent?.trim()),
  );
  expect(clipped).toEqual([]);
  // The time is short and whole, its zone named once in the column.
  await expect(card.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}$/);

  // The address: one line cut short, whole on hover (title) and while focused.
  const email = table.getByRole("link", { name: LONG_EMAIL }).first();
  await expect(email).toHaveAttribute("title", LONG_EMAIL);
  const cut = () => email.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(await cut()).toBe(true);
  await email.focus();
  expect(await cut()).toBe(false);

  // Select all, then one fewer: the box says "some"; all again, then hide them in one go.
  const all = page.getByRole("checkbox", { name: "Select all comments on this page" });
  const rows = table.locator('input[type="checkbox"][name="ids"]');
  await all.check();
  for (const row of await rows.all()) await expect(row).toBeChecked();
  await rows.first().uncheck();
  expect(await all.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);
  await all.check();
  await page.getByLabel("With the selected comments").selectOption("hide");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(table).toHaveCount(0);
  const statuses = await db.selectFrom("comments").select("status").where("id", "in", ids).execute();
  expect(statuses.map((s) => s.status)).toEqual(["hidden", "hidden", "hidden"]);
});

test("the users list at 390 px: cards, short times, no clipped actions, nothing wider than the window", async ({
  page,
  serverDb,
}) => {
  const { db } = serverDb;
  await page.setViewportSize({ width: 390, height: 800 });
  await signedInAdmin(page, db, "lists-users");
  const email = `${TAG}.user.with.a.rather.long.mailbox@department.example-university.edu.cn`;
  await insertUser(db, { email, name: "Long Mailbox" });
  await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  const card = page.getByRole("row", { name: new RegExp(TAG) });
  await expect(card).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await card.locator("details summary").click();
  await expect(card.getByRole("button", { name: `Ban: ${email}` })).toBeVisible();
  const clipped = await page.getByRole("main").evaluate((main) =>
    [...main.querySelectorAll<HTMLElement>("button, summary, a.rounded-md")]
      .filter((el) => el.checkVisibility())
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent?.trim()),
  );
  expect(clipped).toEqual([]);
  await expect(card.locator("time").first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}$/);
  await db.deleteFrom("users").where("email", "=", email).execute();
});

test("readers find friend links from the footer; a link without a logo has no empty box", async ({
  page,
  serverDb,
}) => {
  await createLink(serverDb.db, { name: "E2E lists No Logo", url: "https://nologo.example/" });
  await signedInAdmin(page, serverDb.db, "lists-footer");
  await page.goto("/about");
  const quickLinks = page.getByRole("contentinfo").getByRole("navigation", { name: "Quick links" });
  await quickLinks.getByRole("link", { name: "Friend links" }).click();
  await expect(page).toHaveURL(/\/links$/);
  const card = page.getByRole("main").getByRole("listitem").filter({ hasText: "E2E lists No Logo" });
  await expect(card).toBeVisible();
  await expect(card.locator("img, [aria-hidden='true']")).toHaveCount(0);
});
