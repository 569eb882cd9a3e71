import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MailCapture, startMailCapture } from "../../../tests/setup/mail-capture.ts";
import { insertRawPost } from "../../../tests/setup/raw-post.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import type { Locale, SubscriberLanguages } from "../db/schema.server.ts";
import { deliverOne, dueMail } from "../mail/outbox.server.ts";
import { createMailTransport, type MailTransport } from "../mail/transport.server.ts";
import type { Env } from "../platform/env.server.ts";
import { newId } from "../platform/ids.server.ts";
import {
  BOUNCE_LIMIT,
  postsForTest,
  prepareNextBatch,
  queueNewsletterTest,
  startNewsletters,
  subscriberFromLinkToken,
  subscriberLinkToken,
  versionFor,
} from "./sends.server.ts";
import { requestSubscription, unsubscribe } from "./subscribers.server.ts";
import { newsletterOutboxHooks } from "./worker.server.ts";

const silent = pino({ level: "silent" });
const ctx = {
  publicUrl: "https://blog.example",
  authSecret: "a-test-secret-of-at-least-thirty-two-characters",
  mailFrom: "Blog <blog@example.test>",
};
let database: TestDatabase;
let capture: MailCapture;
let smtp: MailTransport;

beforeAll(async () => {
  database = await createTestDatabase();
  capture = await startMailCapture({
    refuse: (address) => (address.startsWith("gone") ? { code: 550, message: "550 5.1.1 no such mailbox" } : null),
  });
  smtp = createMailTransport(
    { smtpUrl: capture.smtpUrl, mailFrom: ctx.mailFrom, dataDir: "/nonexistent" } as Env,
    silent,
  );
});

afterAll(async () => {
  await smtp.close?.();
  await capture.close();
  await database.cleanup();
});

beforeEach(async () => {
  const { db } = database;
  await db.deleteFrom("mailOutbox").execute();
  await db.deleteFrom("newsletterSends").execute();
  await db.deleteFrom("subscribers").execute();
  await db.deleteFrom("postTranslations").execute();
  await db.deleteFrom("posts").execute();
  capture.messages.length = 0;
});

async function addSubscriber(
  email: string,
  languages: SubscriberLanguages,
  locale: Locale,
  status: "confirmed" | "pending" | "unsubscribed" = "confirmed",
) {
  const at = nowIso();
  const id = newId();
  await database.db
    .insertInto("subscribers")
    .values({
      id,
      email,
      locale,
      languages,
      status,
      confirmTokenHash: `c-${id}`,
      unsubscribeTokenHash: `u-${id}`,
      confirmedAt: status === "confirmed" ? at : null,
      unsubscribedAt: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return id;
}

async function addPost(locales: Locale[], opts: { newsletter?: boolean; status?: "published" | "draft" } = {}) {
  const id = newId();
  // Written straight: these tests start the send themselves.
  await insertRawPost(database.db, {
    id,
    slug: `post-${id}`,
    authorId: null,
    status: opts.status ?? "published",
    publishedAt: nowIso(),
    newsletter: opts.newsletter ?? true,
    translations: locales.map((locale) => ({
      locale,
      title: locale === "en" ? "Hello readers" : "读者你好",
      summary: locale === "en" ? "The summary" : "摘要",
      bodyHtml: locale === "en" ? '<p>Body with <a href="/about">a link</a></p>' : "<p>正文</p>",
    })),
  });
  return id;
}

const hooks = () => newsletterOutboxHooks(database.db, ctx);

/** Queues every send's recipients, batch after batch as the mail worker does; returns how many mails. */
async function prepareAll(db: typeof database.db, context: typeof ctx, batchSize?: number): Promise<number> {
  let total = 0;
  for (;;) {
    const queued = await prepareNextBatch(db, context, batchSize);
    if (queued === null) return total;
    total += queued;
  }
}

async function sendAllDue() {
  const outcomes: string[] = [];
  for (const mail of await dueMail(database.db, 1000)) {
    outcomes.push(await deliverOne(database.db, smtp, mail, undefined, hooks()));
  }
  return outcomes;
}

const byRecipient = () => Object.fromEntries(capture.messages.map((m) => [m.to[0] ?? "", m]));

describe("which version a subscriber gets", () => {
  it("follows their languages, and their own language first when they read both", () => {
    expect(versionFor({ languages: "en", locale: "zh" }, ["en", "zh"])).toBe("en");
    expect(versionFor({ languages: "en", locale: "en" }, ["zh"])).toBeNull();
    expect(versionFor({ languages: "both", locale: "zh" }, ["en", "zh"])).toBe("zh");
    expect(versionFor({ languages: "both", locale: "zh" }, ["en"])).toBe("en");
  });
});

describe(`newsletter sends (${testDialect()})`, () => {
  it("mails a bilingual post once to each reader, in their language, with one-click unsubscribe", async () => {
    await addSubscriber("en@example.test", "en", "en");
    await addSubscriber("zh@example.test", "zh", "zh");
    await addSubscriber("both-zh@example.test", "both", "zh");
    await addSubscriber("both-en@example.test", "both", "en");
    await addSubscriber("pending@example.test", "both", "en", "pending");
    await addSubscriber("left@example.test", "both", "en", "unsubscribed");
    const postId = await addPost(["en", "zh"]);

    expect(await database.db.transaction().execute((trx) => startNewsletters(trx, [postId], null))).toBe(1);
    // A second start (a retried publish, two instances) changes nothing.
    expect(await database.db.transaction().execute((trx) => startNewsletters(trx, [postId], null))).toBe(0);
    expect(await prepareAll(database.db, ctx)).toBe(4);
    expect(await prepareAll(database.db, ctx)).toBe(0);

    expect(await sendAllDue()).toEqual(["sent", "sent", "sent", "sent"]);
    const mails = byRecipient();
    expect(Object.keys(mails).sort()).toEqual([
      "both-en@example.test",
      "both-zh@example.test",
      "en@example.test",
      "zh@example.test",
    ]);
    expect(mails["en@example.test"]?.subject).toBe("Hello readers");
    expect(mails["zh@example.test"]?.subject).toBe("读者你好");
    expect(mails["both-zh@example.test"]?.subject).toBe("读者你好");
    expect(mails["both-en@example.test"]?.subject).toBe("Hello readers");

    const en = mails["en@example.test"];
    if (!en) throw new Error("no English mail");
    expect(en.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    // The sender is the site by its name in the mail's language, at MAIL_FROM's address.
    expect(en.headers.from).toBe('"Inkwell" <blog@example.test>');
    expect(mails["zh@example.test"]?.headers.from).toMatch(/^=\?UTF-8\?B\?.+\?= <blog@example\.test>$/);
    const listUnsubscribe = en.headers["list-unsubscribe"] ?? "";
    expect(listUnsubscribe).toMatch(/<https:\/\/blog\.example\/en\/unsubscribe\?token=[^>]+>/);
    expect(listUnsubscribe).toMatch(/<mailto:blog@example\.test\?subject=unsubscribe[^>]*>/);
    expect(en.html).toContain('href="https://blog.example/about"');
    expect(en.html).toContain(`https://blog.example/en/posts/detail/${postId}?utm_source=newsletter`);
    expect(en.text).toContain("The summary");
    expect(en.text).toContain("Unsubscribe: https://blog.example/en/unsubscribe?token=");

    // The link's token unsubscribes that reader, and only them.
    const token = decodeURIComponent(/token=([^>&\s]+)/.exec(listUnsubscribe)?.[1] ?? "");
    const done = await unsubscribe(database.db, token, ctx.authSecret);
    expect(done.kind === "done" && done.subscriber.email).toBe("en@example.test");
    expect(await unsubscribe(database.db, `${token.slice(0, -1)}x`, ctx.authSecret)).toEqual({ kind: "invalid" });
  });

  it("sends a Chinese-only post to the readers of Chinese and of both, not of English", async () => {
    await addSubscriber("en@example.test", "en", "en");
    await addSubscriber("both-en@example.test", "both", "en");
    const postId = await addPost(["zh"]);
    await database.db.transaction().execute((trx) => startNewsletters(trx, [postId], null));
    await prepareAll(database.db, ctx);
    await sendAllDue();
    expect(capture.messages.map((m) => [m.to[0], m.subject])).toEqual([["both-en@example.test", "读者你好"]]);
  });

  it("starts nothing for a post without the box ticked or not live", async () => {
    const unticked = await addPost(["en"], { newsletter: false });
    const draft = await addPost(["en"], { status: "draft" });
    expect(await database.db.transaction().execute((trx) => startNewsletters(trx, [unticked, draft], null))).toBe(0);
  });

  it("queues in batches from a cursor, and a batch run again queues nobody twice", async () => {
    for (let i = 0; i < 5; i++) await addSubscriber(`r${i}@example.test`, "en", "en");
    const postId = await addPost(["en"]);
    await database.db.transaction().execute((trx) => startNewsletters(trx, [postId], null));
    expect(await prepareNextBatch(database.db, ctx, 2)).toBe(2);
    expect(await prepareNextBatch(database.db, ctx, 2)).toBe(2);
    // A crash after the mails were queued but before the cursor moved: the batch runs again.
    await database.db.updateTable("newsletterSends").set({ cursor: null }).execute();
    expect(await prepareNextBatch(database.db, ctx, 2)).toBe(0);
    expect(await prepareAll(database.db, ctx, 2)).toBe(1);
    const send = await database.db.selectFrom("newsletterSends").selectAll().executeTakeFirstOrThrow();
    expect(send.status).toBe("sending");
    expect(Number(send.recipients)).toBe(5);
    expect(await prepareNextBatch(database.db, ctx, 2)).toBeNull();
  });

  it("does not send to a reader who unsubscribed after being queued", async () => {
    await addSubscriber("stays@example.test", "en", "en");
    const leaving = await addSubscriber("leaves@example.test", "en", "en");
    const postId = await addPost(["en"]);
    await database.db.transaction().execute((trx) => startNewsletters(trx, [postId], null));
    await prepareAll(database.db, ctx);
    await database.db.updateTable("subscribers").set({ status: "unsubscribed" }).where("id", "=", leaving).execute();
    expect((await sendAllDue()).sort()).toEqual(["cancelled", "sent"]);
    expect(capture.messages.map((m) => m.to[0])).toEqual(["stays@example.test"]);
  });

  it("suppresses an address after three permanent failures, until it subscribes again", async () => {
    const gone = await addSubscriber("gone@example.test", "en", "en");
    await addSubscriber("ok@example.test", "en", "en");
    for (let i = 0; i < BOUNCE_LIMIT; i++) {
      const postId = await addPost(["en"]);
      await database.db.transaction().execute((trx) => startNewsletters(trx, [postId], null));
      await prepareAll(database.db, ctx);
      await sendAllDue();
    }
    const row = await database.db
      .selectFrom("subscribers")
      .selectAll()
      .where("id", "=", gone)
      .executeTakeFirstOrThrow();
    expect(Number(row.bounceCount)).toBe(BOUNCE_LIMIT);
    expect(row.bouncedAt).not.toBeNull();
    const failed = await database.db
      .selectFrom("mailOutbox")
      .select(["lastError"])
      .where("subscriberId", "=", gone)
      .execute();
    expect(failed.every((f) => f.lastError?.includes("550"))).toBe(true);

    // The next post skips the suppressed address.
    const next = await addPost(["en"]);
    await database.db.transaction().execute((trx) => startNewsletters(trx, [next], null));
    expect(await prepareAll(database.db, ctx)).toBe(1);

    // Subscribing again starts a fresh opt-in without the bounces.
    const again = await requestSubscription(database.db, { email: "gone@example.test", locale: "en" });
    expect(again.kind).toBe("pending");
    const after = await database.db
      .selectFrom("subscribers")
      .selectAll()
      .where("id", "=", gone)
      .executeTakeFirstOrThrow();
    expect([after.status, Number(after.bounceCount), after.bouncedAt]).toEqual(["pending", 0, null]);
  });

  it("queues a test of any post, a draft too, to one address, with links that change nothing", async () => {
    const draft = await addPost(["en", "zh"], { status: "draft" });
    const sent: Array<{ to: string; subject: string; html?: string | null | undefined; text: string }> = [];
    const mailer = { send: async (m: (typeof sent)[number]) => void sent.push(m) };
    expect(
      await queueNewsletterTest(database.db, ctx, mailer, { postId: draft, to: "me@example.test", locale: "zh" }),
    ).toBe("queued");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe("[测试] 读者你好");
    expect(sent[0]?.text).toContain("https://blog.example/zh/unsubscribe#language");
    expect(sent[0]?.text).not.toContain("token=");
    expect(
      await queueNewsletterTest(database.db, ctx, mailer, { postId: "nope", to: "me@example.test", locale: "en" }),
    ).toBe("notFound");
    expect((await postsForTest(database.db, "en")).map((p) => p.id)).toContain(draft);
  });

  it("signs link tokens per subscriber and stops honouring them after a new opt-in", async () => {
    const id = await addSubscriber("a@example.test", "en", "en");
    const row = await database.db
      .selectFrom("subscribers")
      .select(["id", "unsubscribeTokenHash"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const token = subscriberLinkToken(ctx.authSecret, row);
    expect(await subscriberFromLinkToken(database.db, ctx.authSecret, token)).toBe(id);
    expect(await subscriberFromLinkToken(database.db, "another-secret-of-thirty-two-characters!", token)).toBeNull();
    await database.db.updateTable("subscribers").set({ unsubscribeTokenHash: "new" }).where("id", "=", id).execute();
    expect(await subscriberFromLinkToken(database.db, ctx.authSecret, token)).toBeNull();
  });
});
