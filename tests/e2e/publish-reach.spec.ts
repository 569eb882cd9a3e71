import { rmSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import { type OpenDatabase, openDatabase } from "../../app/server/db/db.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { freePort, type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { nameOf, PASSWORD } from "./account-helpers.ts";
import { axeFindings } from "./axe.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";
import { uniqueEmail } from "./mail.ts";

// The publish dialog's counts are the database's (issue 47): on a blog that federates, the
// subscribers a newsletter would mail (per language version) and the Fediverse followers each
// version is shared with, for rows this test writes into the blog's database: confirmed and
// pending subscribers, a bounced one, followers of both accounts and one of a blocked server.
// The e2e servers are http, so federation is off there; this blog is the production server
// through the test seam that allows federation over http (tests/setup/federation-server.ts).

test.describe.configure({ mode: "serial" });

let blog: ServerProcess;
let database: OpenDatabase;
let origin: string;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(ceiling(120_000));
  dataDir = tempDataDir();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const file = path.join(dataDir, "inkwell.db");
  blog = await startServer(
    {
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      DATABASE_URL: file,
      LOG_REQUESTS: "false",
      FEDERATION: "on",
    },
    { entry: "tests/setup/federation-server.ts" },
  );
  database = openDatabase({ dialect: "sqlite", file });
  await fillAudience(database.db);
});

test.afterAll(async () => {
  await database?.close();
  await blog?.stop("SIGKILL");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function fillAudience(db: OpenDatabase["db"]): Promise<void> {
  const at = new Date().toISOString();
  const subscribers = [
    { languages: "en", locale: "en", status: "confirmed" },
    { languages: "en", locale: "zh", status: "confirmed" },
    { languages: "zh", locale: "zh", status: "confirmed" },
    { languages: "both", locale: "zh", status: "confirmed" },
    { languages: "both", locale: "en", status: "confirmed" },
    { languages: "both", locale: "en", status: "confirmed", bounced: true },
    { languages: "zh", locale: "en", status: "pending" },
  ] as const;
  for (const row of subscribers) {
    const id = newId();
    await db
      .insertInto("subscribers")
      .values({
        id,
        email: `${id}@example.test`,
        languages: row.languages,
        locale: row.locale,
        status: row.status,
        confirmTokenHash: `c-${id}`,
        unsubscribeTokenHash: `u-${id}`,
        confirmedAt: row.status === "confirmed" ? at : null,
        unsubscribedAt: null,
        bouncedAt: "bounced" in row ? at : null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
  }
  const followers = [
    ...Array.from({ length: 4 }, (_, i) => ({ actor: "en" as const, server: "social.example", n: i })),
    ...Array.from({ length: 2 }, (_, i) => ({ actor: "zh" as const, server: "social.example", n: 10 + i })),
    { actor: "zh" as const, server: "blocked.example", n: 20 },
  ];
  await db
    .insertInto("federationFollowers")
    .values(
      followers.map(({ actor, server, n }) => ({
        id: newId(),
        actor,
        followerUri: `https://${server}/users/r${n}`,
        inboxUrl: `https://${server}/users/r${n}/inbox`,
        sharedInboxUrl: null,
        handle: `@r${n}@${server}`,
        name: `Reader ${n}`,
        server,
        createdAt: at,
      })),
    )
    .execute();
  await db
    .insertInto("federationBlocks")
    .values({ id: newId(), kind: "domain", value: "blocked.example", createdAt: at })
    .execute();
}

/** Who a bilingual post reaches, counted here from the tables with the newsletter's rules. */
async function expectedReach(db: OpenDatabase["db"]) {
  const subscribers = await db
    .selectFrom("subscribers")
    .select(["languages", "locale"])
    .where("status", "=", "confirmed")
    .where("bouncedAt", "is", null)
    .execute();
  const mailedIn = (l: "en" | "zh") =>
    subscribers.filter((s) => s.languages === l || (s.languages === "both" && s.locale === l)).length;
  const blocked = (await db.selectFrom("federationBlocks").select("value").where("kind", "=", "domain").execute()).map(
    (b) => b.value,
  );
  const followers = await db.selectFrom("federationFollowers").select(["actor", "server"]).execute();
  const sharedIn = (l: "en" | "zh") => followers.filter((f) => f.actor === l && !blocked.includes(f.server)).length;
  return { mailed: { en: mailedIn("en"), zh: mailedIn("zh") }, shared: { en: sharedIn("en"), zh: sharedIn("zh") } };
}

/** An admin of this blog, signed in through better-auth's endpoints (account-helpers' way). */
async function signInHere(page: Page): Promise<void> {
  const email = uniqueEmail("reach");
  await addAdmins(database.db, [email], "cli");
  const headers = { origin };
  const signUp = await page.request.post(`${origin}/api/auth/sign-up/email`, {
    data: { email, password: PASSWORD, name: nameOf(email) },
    headers,
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  await database.db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
  const signIn = await page.request.post(`${origin}/api/auth/sign-in/email`, {
    data: { email, password: PASSWORD },
    headers,
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
}

const UI = {
  en: {
    tabs: { en: "English", zh: "中文" },
    title: "Title",
    publish: "Publish…",
    dialog: "Publish this post?",
    cancel: "Cancel",
    mailed: (r: Reach) =>
      `It is e-mailed to ${r.mailed.en + r.mailed.zh} subscribers: ${r.mailed.en} in English, ${r.mailed.zh} in Chinese.`,
    shared: (r: Reach) =>
      `It is shared with ${r.shared.en + r.shared.zh} Fediverse followers: ${r.shared.en} in English, ${r.shared.zh} in Chinese.`,
  },
  zh: {
    tabs: { en: "English", zh: "中文" },
    title: "标题",
    publish: "发布…",
    dialog: "发布这篇文章？",
    cancel: "取消",
    mailed: (r: Reach) =>
      `将通过邮件发送给 ${r.mailed.en + r.mailed.zh} 位订阅者：英文 ${r.mailed.en}，中文 ${r.mailed.zh}。`,
    shared: (r: Reach) =>
      `将分享给 ${r.shared.en + r.shared.zh} 位联邦宇宙关注者：英文 ${r.shared.en}，中文 ${r.shared.zh}。`,
  },
} as const;

type Reach = Awaited<ReturnType<typeof expectedReach>>;

for (const locale of ["en", "zh"] as const) {
  test(`the publish dialog's subscribers and followers are the database's (${locale})`, async ({ page }) => {
    const ui = UI[locale];
    await signInHere(page);
    const reach = await expectedReach(database.db);
    // The rows above, as the newsletter and the federation count them: not trivially equal.
    expect(reach).toEqual({ mailed: { en: 3, zh: 2 }, shared: { en: 4, zh: 2 } });

    await page.goto(`${origin}/${locale}/posts/createPost`);
    for (const [l, title] of [
      ["en", "Reaching readers"],
      ["zh", "触达读者"],
    ] as const) {
      await page.getByRole("tab", { name: ui.tabs[l] }).click();
      await page.getByRole("tabpanel", { name: ui.tabs[l] }).getByLabel(ui.title, { exact: true }).fill(title);
    }
    await page.getByRole("button", { name: ui.publish }).click();
    const dialog = page.getByRole("dialog", { name: ui.dialog });
    await expect(dialog.getByTestId("publish-mail")).toHaveText(ui.mailed(reach));
    await expect(dialog.getByTestId("publish-fedi")).toHaveText(ui.shared(reach));
    expect(await axeFindings(page, { include: "[data-testid=publish-dialog]" })).toEqual([]);

    await dialog.getByRole("button", { name: ui.cancel }).click();
    await expect(dialog).toBeHidden();
  });
}
