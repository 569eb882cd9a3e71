import AxeBuilder from "@axe-core/playwright";
import type { MailStatus } from "../../app/server/db/schema.server.ts";
import { requestSubscription, unsubscribe } from "../../app/server/newsletter/subscribers.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });

const tag = `nl${Date.now().toString(36)}`;
const cleanup: { posts: string[]; sends: string[]; emails: string[]; importers: string[] } = {
  posts: [],
  sends: [],
  emails: [],
  importers: [],
};

test.afterAll(async ({ serverDb }) => {
  // Other files share this database (the dashboard counts subscribers, lists count posts).
  const { db } = serverDb;
  if (cleanup.sends.length) {
    await db.deleteFrom("mailOutbox").where("sendId", "in", cleanup.sends).execute();
    await db.deleteFrom("newsletterSends").where("id", "in", cleanup.sends).execute();
  }
  if (cleanup.posts.length) {
    await db.deleteFrom("postTranslations").where("postId", "in", cleanup.posts).execute();
    await db.deleteFrom("posts").where("id", "in", cleanup.posts).execute();
  }
  if (cleanup.emails.length) await db.deleteFrom("subscribers").where("email", "in", cleanup.emails).execute();
  if (cleanup.importers.length) {
    await db.deleteFrom("subscriberImports").where("actorEmail", "in", cleanup.importers).execute();
  }
});

test("visitors never reach the newsletter pages nor import subscribers", async ({ request, baseURL, serverDb }) => {
  for (const path of ["/admin/newsletter", `/admin/newsletter/${newId()}`]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
  }
  const address = `${tag}-intruder@example.test`;
  const post = await request.post("/admin/subscribers", {
    maxRedirects: 0,
    headers: { Origin: baseURL ?? "" },
    multipart: {
      intent: "import",
      languages: "en",
      file: { name: "x.csv", mimeType: "text/csv", buffer: Buffer.from(`email\n${address}\n`) },
    },
  });
  expect(post.status()).toBe(302);
  const row = await serverDb.db.selectFrom("subscribers").select("id").where("email", "=", address).executeTakeFirst();
  expect(row).toBeUndefined();
});

test("the newsletter page shows a send's counts and progress, live, and its failures", async ({ page, serverDb }) => {
  test.slow();
  const { db } = serverDb;
  // A draft: it never shows on the public lists other files count.
  const postId = await createPost(db, {
    slug: `${tag}-letter`,
    authorId: null,
    status: "draft",
    publishedAt: null,
    translations: [
      { locale: "en", title: `Letter ${tag}` },
      { locale: "zh", title: `来信 ${tag}` },
    ],
  });
  cleanup.posts.push(postId);
  const sendId = newId();
  cleanup.sends.push(sendId);
  const at = new Date().toISOString();
  await db
    .insertInto("newsletterSends")
    .values({
      id: sendId,
      postId,
      status: "sending",
      cursor: null,
      recipients: 4,
      mails: null,
      createdBy: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  const mail = async (status: MailStatus, i: number, lastError: string | null = null) => {
    const id = newId();
    await db
      .insertInto("mailOutbox")
      .values({
        id,
        key: `newsletter:${postId}:${i}`,
        kind: "newsletter",
        recipient: `${tag}-${i}@example.test`,
        subject: `Letter ${tag}`,
        text: "",
        html: null,
        headers: null,
        status,
        attempts: status === "failed" ? 1 : 0,
        // Far in the future: the server's worker leaves the queued one alone.
        nextAttemptAt: "2999-01-01T00:00:00.000Z",
        lastError,
        createdAt: at,
        sentAt: status === "sent" ? at : null,
        sendId,
        subscriberId: null,
        locale: "en",
      })
      .execute();
    return id;
  };
  const queued = await mail("queued", 1);
  await mail("sent", 2);
  await mail("sent", 3);
  await mail("failed", 4, "550 5.1.1 <nobody@example.test>: Recipient address rejected");

  await signedInAdmin(page, db, "newsletter-admin");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Newsletter", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Newsletter");
  await expect(page.getByRole("link", { name: "Newsletter", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("Confirmed subscribers")).toBeVisible();

  const row = page.getByRole("row", { name: new RegExp(`Letter ${tag}`) });
  await expect(row.getByRole("link", { name: `Letter ${tag}`, exact: true })).toHaveAttribute(
    "href",
    `/posts/detail/${postId}`,
  );
  await expect(row.getByRole("cell").nth(1)).toHaveText("Sending");
  await expect(row.getByRole("cell").nth(2)).toHaveText("1"); // queued
  await expect(row.getByRole("cell").nth(3)).toHaveText("2"); // sent
  await expect(row.getByRole("cell").nth(4)).toHaveText("1"); // failed
  await expect(row.getByRole("cell").nth(5)).toHaveText("0"); // cancelled
  const bar = row.getByRole("progressbar", { name: `Progress of “Letter ${tag}”` });
  await expect(bar).toHaveAttribute("aria-valuenow", "75");
  await expect(row).toContainText("3 of 4 (75%)");

  // The last mail goes out: the page follows by itself while mail is queued.
  await db
    .updateTable("mailOutbox")
    .set({ status: "sent", sentAt: new Date().toISOString() })
    .where("id", "=", queued)
    .execute();
  await expect(bar).toHaveAttribute("aria-valuenow", "100", { timeout: 10_000 });
  await expect(row.getByRole("cell").nth(1)).toHaveText("Finished");
  await expect(row.getByRole("cell").nth(3)).toHaveText("3");

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  await row.getByRole("link", { name: `Details of the send of “Letter ${tag}”` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Send of “Letter ${tag}”`);
  const failed = page.getByRole("table", { name: "Failed mails of this send, by recipient" });
  await expect(failed.getByRole("row")).toHaveCount(2);
  await expect(failed).toContainText(`${tag}-4@example.test`);
  await expect(failed).toContainText("550 5.1.1 <nobody@example.test>: Recipient address rejected");
  const detailAxe = await new AxeBuilder({ page }).analyze();
  expect(detailAxe.violations.map((v) => v.id)).toEqual([]);

  // In Chinese, the Chinese title.
  await page.context().addCookies([{ name: "locale", value: "zh", url: new URL(page.url()).origin }]);
  await page.goto("/admin/newsletter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("邮件通讯");
  await expect(page.getByRole("link", { name: `来信 ${tag}`, exact: true })).toBeVisible();
  await page.context().clearCookies({ name: "locale" });
  expect((await page.request.get(`/admin/newsletter/${newId()}`)).status()).toBe(404);
});

test("an admin imports a Ghost members export and sees the report and the new subscribers", async ({
  page,
  serverDb,
}) => {
  test.slow();
  const { db } = serverDb;
  const email = (name: string) => `${tag}-${name}@example.test`;
  cleanup.emails.push(...["ann", "bob", "cy", "dee", "gone"].map(email));
  // Someone who unsubscribed earlier: the import must not subscribe them again.
  const gone = await requestSubscription(db, { email: email("gone"), locale: "en" });
  // A random token: the secret only matters for signed newsletter links.
  if (gone.kind === "pending") await unsubscribe(db, gone.unsubscribeToken, "unused-for-random-tokens");

  const csv = [
    "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers",
    `1,${email("ann")},"Ann, A.",,true,,,2023-01-15T10:20:30.000Z,,,`,
    `2,${email("bob").toUpperCase()},Bob,"two\nlines",true,,,2023-02-01T00:00:00.000Z,,,`,
    `3,${email("ann")},Ann again,,true,,,,,,`,
    `4,${email("cy")},Cy,,false,,,,,,`,
    "5,not-an-address,Nobody,,true,,,,,,",
    `6,${email("gone")},Gone,,true,,,,,,`,
  ].join("\r\n");

  cleanup.importers.push(await signedInAdmin(page, db, "newsletter-import"));
  await page.goto("/admin/subscribers");
  await page.getByText("Import subscribers from a CSV file").click();
  await page.getByLabel("CSV file").setInputFiles({
    name: "members.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`\uFEFF${csv}`, "utf8"),
  });
  await page.getByLabel("Language for rows that name none").selectOption("zh");
  await page.getByRole("button", { name: "Import", exact: true }).click();

  // The upload returns at once; the worker finishes a file this small within about a second.
  const report = page.getByRole("status").filter({ hasText: "Import finished" }).first();
  await expect(report).toContainText("Imported 2 subscribers.");
  await expect(report).toContainText("Skipped 1 address repeated within the file.");
  await expect(report).toContainText("Skipped 1 address already on the list.");
  await expect(report).toContainText("Skipped 1 row not subscribed to e-mails.");
  await expect(report).toContainText("Skipped 1 invalid row.");
  await expect(report).toContainText("Line 7: “not-an-address” is not a valid e-mail address.");
  const importsAxe = await new AxeBuilder({ page }).include("#imports").analyze();
  expect(importsAxe.violations.map((v) => v.id)).toEqual([]);

  await page.getByLabel("Search by e-mail").fill(tag);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("3 subscribers", { exact: true })).toBeVisible();
  for (const name of ["ann", "bob"]) {
    const row = page.getByRole("row", { name: new RegExp(email(name)) });
    await expect(row).toContainText("Confirmed");
    await expect(row).toContainText("Chinese");
  }
  await expect(page.getByRole("row", { name: new RegExp(email("gone")) })).toContainText("Unsubscribed");
  await expect(page.getByRole("row", { name: new RegExp(email("cy")) })).toHaveCount(0);

  // Not a CSV: refused with a reason, nothing written.
  await page.getByText("Import subscribers from a CSV file").click();
  await page.getByLabel("CSV file").setInputFiles({
    name: "notes.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${email("dee")}\n`, "utf8"),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText(
    "The first line must be a header naming the columns, with one called email.",
  );
  const dee = await db.selectFrom("subscribers").select("id").where("email", "=", email("dee")).executeTakeFirst();
  expect(dee).toBeUndefined();

  // Without JavaScript (a plain form post): the upload is answered with a redirect to the
  // page, where a reload shows the import's progress and then its report; the same file
  // again imports nothing, and a file without the header is a 400 with the reason.
  const origin = new URL(page.url()).origin;
  const plainPost = (name: string, text: string) =>
    page.request.post("/admin/subscribers", {
      maxRedirects: 0,
      headers: { Origin: origin, Accept: "text/html" },
      multipart: {
        intent: "import",
        languages: "en",
        file: { name, mimeType: "text/csv", buffer: Buffer.from(text, "utf8") },
      },
    });
  const again = await plainPost("members-again.csv", csv);
  expect(again.status()).toBe(302);
  expect(again.headers().location).toBe("/admin/subscribers#imports");
  const lastReport = async () => {
    const html = await (await page.request.get("/admin/subscribers", { headers: { Accept: "text/html" } })).text();
    const start = html.indexOf("members-again.csv");
    return start < 0 ? "" : html.slice(start, start + 8000);
  };
  await expect.poll(lastReport).toContain("Import finished");
  const html = await lastReport();
  expect(html).toContain("Imported 0 subscribers.");
  expect(html).toContain("Skipped 3 addresses already on the list.");
  const refused = await plainPost("notes.csv", `${email("dee")}\n`);
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("with one called email.");

  // The import is in the audit log.
  await page.goto("/admin");
  await expect(page.getByRole("table").getByText("subscribers.import").first()).toBeVisible();
});
