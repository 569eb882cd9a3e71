import AxeBuilder from "@axe-core/playwright";
import { newId } from "../../app/server/ids.server.ts";
import { DEFAULT_SETTINGS, updateSiteSettings } from "../../app/server/repos/site-settings.server.ts";
import { signedInAdmin, signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });

const followerIds: string[] = [];

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: the settings go back to the defaults, our followers go.
  await updateSiteSettings(serverDb.db, { fediverse: DEFAULT_SETTINGS.fediverse });
  if (followerIds.length > 0) {
    await serverDb.db.deleteFrom("federationFollowers").where("id", "in", followerIds).execute();
  }
});

test("non-admins cannot see or change the Fediverse page", async ({ page, request }) => {
  const response = await request.get("/admin/fediverse", { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  await signedInUser(page, "fedi-not-admin");
  expect((await page.goto("/admin/fediverse"))?.status()).toBe(403);
  const post = await page.request.post("/admin/fediverse", {
    form: { enabled: "on", handleZh: "x", handleEn: "y" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(post.status()).toBe(403);
});

test("an admin sees why federation is off, the handles and the followers, in English and Chinese", async ({
  page,
  serverDb,
}) => {
  const { db } = serverDb;
  // 55 followers of the Chinese account: two pages of 50.
  const base = Date.UTC(2026, 0, 1);
  const rows = Array.from({ length: 55 }, (_, i) => {
    const id = newId();
    followerIds.push(id);
    return {
      id,
      actor: "zh" as const,
      followerUri: `https://social.example/users/reader${i}`,
      inboxUrl: `https://social.example/users/reader${i}/inbox`,
      sharedInboxUrl: "https://social.example/inbox",
      handle: `@reader${i}@social.example`,
      name: `Reader ${i}`,
      server: "social.example",
      createdAt: new Date(base + i * 60_000).toISOString(),
    };
  });
  await db.insertInto("federationFollowers").values(rows).execute();

  await signedInAdmin(page, db, "fedi-admin");
  await page.goto("/admin/fediverse");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fediverse");
  const status = page.getByTestId("federation-status");
  // The e2e server's PUBLIC_URL is http://127.0.0.1:…: off, and the page says why.
  await expect(status).toContainText("Federation is off");
  await expect(status).toContainText("does not start with https://");
  const host = new URL(page.url()).host;
  await expect(page.getByTestId("handle-zh")).toHaveText(`@blog@${host}`);
  await expect(page.getByTestId("handle-en")).toHaveText(`@blog-en@${host}`);
  await expect(page.getByTestId("followers-count-zh")).toHaveText("55 followers");
  await expect(page.getByTestId("followers-count-en")).toHaveText("0 followers");
  // Newest first, 50 a page.
  await expect(page.getByRole("link", { name: "@reader54@social.example" })).toBeVisible();
  await expect(page.getByRole("link", { name: "@reader4@social.example", exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/zhPage=2/);
  await expect(page.getByRole("link", { name: "@reader4@social.example", exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // A handle that cannot be one is refused with the field's message; nothing is saved.
  await page.goto("/admin/fediverse");
  await page.getByLabel("Handle of the English account").fill("not a handle!");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Use 1 to 30 letters, digits, dots, dashes or underscores")).toBeVisible();
  // The switch and new handles are saved.
  await page.getByLabel("Handle of the English account").fill("notes");
  await page.getByLabel("Handle of the Chinese account").fill("biji");
  await page.getByLabel("Federate this blog").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("handle-en")).toHaveText(`@notes@${host}`);
  await expect(page.getByTestId("handle-zh")).toHaveText(`@biji@${host}`);
  await expect(page.getByLabel("Federate this blog")).toBeChecked();
  // Still off: the address is not https, whatever the switch says.
  await expect(status).toContainText("Federation is off");

  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto("/admin/fediverse");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("联邦宇宙");
  await expect(page.getByTestId("federation-status")).toContainText("联邦已关闭");
  await expect(page.getByTestId("federation-status")).toContainText("不是以 https:// 开头");
  await expect(page.getByTestId("followers-count-zh")).toHaveText("55 位关注者");
  await expect(page.getByRole("heading", { name: "中文账号" })).toBeVisible();
  await page.context().clearCookies({ name: "locale" });
});
