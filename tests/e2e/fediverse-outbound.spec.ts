import AxeBuilder from "@axe-core/playwright";
import { newId } from "../../app/server/platform/ids.server.ts";
import { freePort, type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl } from "../setup/test-db.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// Issue 22, what readers and the owner see of the outbound side: the "Follow on the
// Fediverse" box (its copy button on lean pages from the reader script, on app pages from
// React; hidden while federation is off), the fediverse:creator tag, the editor's "Share on
// the Fediverse" box, and the delivery log on /admin/fediverse.

test.describe.configure({ mode: "serial" });

const deliveryIds: string[] = [];
const posts: string[] = [];

test.afterAll(async ({ serverDb }) => {
  const { db } = serverDb;
  if (deliveryIds.length > 0) await db.deleteFrom("federationDeliveries").where("id", "in", deliveryIds).execute();
  await db.deleteFrom("federationServers").where("server", "=", "down.example").execute();
  if (posts.length > 0) {
    await db.deleteFrom("postTranslations").where("postId", "in", posts).execute();
    await db.deleteFrom("postRevisions").where("postId", "in", posts).execute();
    await db.deleteFrom("posts").where("id", "in", posts).execute();
  }
});

test("no follow box and no fediverse:creator while federation is off", async ({ page }) => {
  // The e2e server's address is http: federation is off.
  await page.goto("/en");
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(page.getByTestId("follow-box")).toHaveCount(0);
  await expect(page.locator('meta[name="fediverse:creator"]')).toHaveCount(0);
});

test.describe("with federation on", () => {
  let blog: ServerProcess;
  let cleanup: () => Promise<void>;
  let origin: string;
  let host: string;

  test.beforeAll(async () => {
    test.setTimeout(ceiling(120_000));
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    cleanup = database.cleanup;
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    host = `127.0.0.1:${port}`;
    // The production server through the test seam that allows federation over http.
    blog = await startServer(
      {
        PORT: String(port),
        PUBLIC_URL: origin,
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        LOG_REQUESTS: "false",
        FEDERATION: "on",
      },
      { entry: "tests/setup/federation-server.ts" },
    );
  });

  test.afterAll(async () => {
    await blog?.stop("SIGKILL");
    await cleanup?.();
  });

  test("the follow box offers the page's language's handle and copies it, in English and Chinese", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    // A lean reading page (no React): the reader script shows and runs the button.
    await page.goto(`${origin}/en`);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    await expect(page.locator('meta[name="fediverse:creator"]')).toHaveAttribute("content", `@blog-en@${host}`);
    const box = page.getByRole("region", { name: "Follow on the Fediverse" });
    await expect(box.getByTestId("fediverse-handle")).toHaveText(`@blog-en@${host}`);
    await expect(box).toContainText("Search for this handle on Mastodon");
    const copy = box.getByRole("button", { name: "Copy" });
    await copy.click();
    await expect(box.getByRole("button", { name: "Copied" })).toBeVisible();
    await expect(box.getByRole("status")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`@blog-en@${host}`);
    const axe = await new AxeBuilder({ page }).include("footer").analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    // Chinese: the Chinese account.
    await page.goto(`${origin}/zh`);
    await expect(page.locator('meta[name="fediverse:creator"]')).toHaveAttribute("content", `@blog@${host}`);
    const zhBox = page.getByRole("region", { name: "在联邦宇宙关注" });
    await expect(zhBox.getByTestId("fediverse-handle")).toHaveText(`@blog@${host}`);
    await zhBox.getByRole("button", { name: "复制" }).click();
    await expect(zhBox.getByRole("button", { name: "已复制" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`@blog@${host}`);

    // An app page (hydrated): React runs the same button.
    await page.goto(`${origin}/en/login`);
    await expect(page.locator("html[data-hydrated=true]")).toHaveCount(1);
    await page.evaluate(() => navigator.clipboard.writeText(""));
    const appBox = page.getByRole("region", { name: "Follow on the Fediverse" });
    await appBox.getByRole("button", { name: "Copy" }).click();
    await expect(appBox.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`@blog-en@${host}`);
  });

  test("without JavaScript the handle is there and the copy button is not", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${origin}/en`);
    const box = page.getByTestId("follow-box");
    await expect(box.getByTestId("fediverse-handle")).toHaveText(`@blog-en@${host}`);
    await expect(box.getByRole("button")).toHaveCount(0);
    await context.close();
  });
});

test("the editor's Share on the Fediverse box: on for new posts, off when back-dated, saved", async ({
  page,
  serverDb,
}) => {
  const { db } = serverDb;
  await signedInAdmin(page, db, "fedi-writer");
  await page.goto("/posts/createPost");
  const english = page.getByRole("tabpanel", { name: "English" });
  await english.getByLabel("Title", { exact: true }).fill(`Old notes ${Date.now().toString(36)}`);
  // The settings panel stays open across saves (the editor remembers it).
  await page.locator("[data-editor-bar]").getByRole("button", { name: "Settings" }).click();
  const share = page.getByRole("checkbox", { name: "Share on the Fediverse" });
  await expect(share).toBeChecked();
  // Dated last year: not news to followers, unless the author ticks it.
  await page.getByLabel("Publish time").fill("2025-03-01T09:00");
  await expect(share).not.toBeChecked();
  await expect(page.getByText("This post is dated in the past, so it is not sent")).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/posts\/edit\/[0-9a-z]{20}$/);
  const id = page.url().split("/").pop() ?? "";
  posts.push(id);
  const stored = () => db.selectFrom("posts").select("federate").where("id", "=", id).executeTakeFirstOrThrow();
  expect(Number((await stored()).federate)).toBe(0);
  await expect(page.getByRole("checkbox", { name: "Share on the Fediverse" })).not.toBeChecked();

  // Ticked and saved: stored on.
  await page.getByRole("checkbox", { name: "Share on the Fediverse" }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("checkbox", { name: "Share on the Fediverse" })).toBeChecked();
  await expect.poll(async () => Number((await stored()).federate)).toBe(1);

  // In Chinese.
  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto(`/posts/edit/${id}`);
  await expect(page.getByRole("checkbox", { name: "分享到联邦宇宙" })).toBeChecked();
  await page.context().clearCookies({ name: "locale" });
});

test("the delivery log shows each attempt, filters failures and names the servers given up", async ({
  page,
  serverDb,
}) => {
  const { db } = serverDb;
  const base = Date.now() - 60 * 60_000;
  const row = (i: number, outcome: "sent" | "retrying" | "gave-up" | "skipped", status: number | null) => {
    const id = newId();
    deliveryIds.push(id);
    return {
      id,
      createdAt: new Date(base + i * 60_000).toISOString(),
      server: outcome === "sent" ? "ok.example" : "down.example",
      inbox: outcome === "sent" ? "https://ok.example/inbox" : "https://down.example/inbox",
      activityId: `https://blog.example/ap/articles/en/p${i}#create`,
      activityType: "Create",
      outcome,
      attempt: outcome === "retrying" ? 2 : 0,
      status,
      error: status ? `Failed (${status})` : outcome === "skipped" ? "server given up as dead" : null,
    };
  };
  const rows = [
    ...Array.from({ length: 27 }, (_, i) => row(i, "sent", null)),
    row(27, "retrying", 503),
    row(28, "gave-up", 410),
    row(29, "skipped", null),
  ];
  await db.insertInto("federationDeliveries").values(rows).execute();
  const at = new Date(base).toISOString();
  await db
    .insertInto("federationServers")
    .values({ server: "down.example", failingSince: at, lastFailureAt: at, deadSince: at })
    .execute();

  await signedInAdmin(page, db, "fedi-log-admin");
  await page.goto("/admin/fediverse");
  const log = page.getByRole("region", { name: "Delivery log" });
  await expect(log.getByRole("status")).toContainText("down.example: no deliveries since");
  // Newest first, 25 a page: the three failures and 22 deliveries on the first page.
  await expect(log.getByRole("row")).toHaveCount(26);
  await expect(log.getByRole("row").nth(1)).toContainText("Skipped");
  await expect(log.getByRole("row").nth(2)).toContainText("Failed, given up");
  await expect(log.getByRole("row").nth(2)).toContainText("HTTP 410");
  await expect(log.getByRole("row").nth(3)).toContainText("Failed, will retry (attempt 3)");
  await log.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/logPage=2/);
  await expect(log.getByRole("row")).toHaveCount(6);
  await log.getByRole("link", { name: "Failures" }).click();
  await expect(page).toHaveURL(/log=failures/);
  await expect(log.getByRole("row")).toHaveCount(4);
  await expect(log.getByRole("link", { name: "Failures" })).toHaveAttribute("aria-current", "page");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto("/admin/fediverse?log=failures");
  const zhLog = page.getByRole("region", { name: "投递记录" });
  await expect(zhLog.getByRole("row").nth(3)).toContainText("失败，将重试");
  await expect(zhLog.getByRole("row").nth(3)).toContainText("第 3 次尝试");
  await expect(zhLog.getByRole("status")).toContainText("已放弃的服务器");
  const zhAxe = await new AxeBuilder({ page }).analyze();
  expect(zhAxe.violations.map((v) => v.id)).toEqual([]);
  await page.context().clearCookies({ name: "locale" });
});
