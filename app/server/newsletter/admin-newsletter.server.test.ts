import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import type { MailStatus, NewsletterSendStatus, SubscriberLanguages, SubscriberStatus } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import {
  countSendsWithFailures,
  failedMailsForSend,
  getSendForAdmin,
  listSendsForAdmin,
  newsletterAudience,
  sendCounts,
} from "./admin-newsletter.server.ts";

let database: TestDatabase;
const T = "2026-11-26T10:00:00.000Z";

async function post(titles: { en?: string; zh?: string }): Promise<string> {
  const id = newId();
  await database.db
    .insertInto("posts")
    .values({
      id,
      slug: `p-${id}`,
      authorId: null,
      status: "published",
      publishedAt: T,
      categoryId: null,
      coverImageId: null,
      createdAt: T,
      updatedAt: T,
    })
    .execute();
  for (const locale of ["en", "zh"] as const) {
    const title = titles[locale];
    if (!title) continue;
    await database.db
      .insertInto("postTranslations")
      .values({
        postId: id,
        locale,
        title,
        summary: "",
        bodyMarkdown: "",
        bodyHtml: "",
        seoTitle: null,
        seoDescription: null,
        createdAt: T,
        updatedAt: T,
      })
      .execute();
  }
  return id;
}

async function send(postId: string, status: NewsletterSendStatus, recipients: number, createdAt: string) {
  const id = newId();
  await database.db
    .insertInto("newsletterSends")
    .values({
      id,
      postId,
      status,
      cursor: null,
      recipients,
      mails: null,
      createdBy: null,
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
  return id;
}

async function mails(sendId: string, status: MailStatus, count: number, error: string | null = null) {
  for (let i = 0; i < count; i++) {
    const id = newId();
    await database.db
      .insertInto("mailOutbox")
      .values({
        id,
        key: `newsletter:${sendId}:${id}`,
        kind: "newsletter",
        recipient: `${status}-${i}@example.test`,
        subject: "s",
        text: "t",
        html: null,
        headers: null,
        status,
        attempts: status === "failed" ? 2 : 0,
        nextAttemptAt: T,
        lastError: error,
        createdAt: T,
        sentAt: null,
        sendId,
        subscriberId: null,
        locale: "en",
      })
      .execute();
  }
}

async function subscriber(status: SubscriberStatus, languages: SubscriberLanguages, bounced = false) {
  const id = newId();
  await database.db
    .insertInto("subscribers")
    .values({
      id,
      email: `${id}@example.test`,
      locale: "en",
      status,
      languages,
      confirmTokenHash: id,
      unsubscribeTokenHash: `u${id}`,
      confirmedAt: status === "confirmed" ? T : null,
      unsubscribedAt: null,
      bounceCount: bounced ? 3 : 0,
      bouncedAt: bounced ? T : null,
      createdAt: T,
      updatedAt: T,
    })
    .execute();
}

let busy: string;
let done: string;
let orphan: string;
let empty: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const both = await post({ en: "Hello", zh: "你好" });
  const zhOnly = await post({ zh: "只有中文" });
  busy = await send(both, "sending", 10, "2026-11-26T09:00:00.000Z");
  await mails(busy, "queued", 4);
  await mails(busy, "sent", 3);
  await mails(busy, "failed", 2, "550 5.1.1 no such user");
  await mails(busy, "cancelled", 1);
  done = await send(zhOnly, "sending", 2, "2026-11-25T09:00:00.000Z");
  await mails(done, "sent", 2);
  orphan = await send(newId(), "cancelled", 0, "2026-11-24T09:00:00.000Z");
  empty = await send(await post({ en: "Just started" }), "preparing", 0, "2026-11-26T11:00:00.000Z");
  // A mail of no send (account mail) is never counted.
  await database.db
    .insertInto("mailOutbox")
    .values({
      id: newId(),
      key: "auth:x",
      kind: "auth",
      recipient: "x@example.test",
      subject: "s",
      text: "t",
      html: null,
      headers: null,
      status: "queued",
      nextAttemptAt: T,
      lastError: null,
      createdAt: T,
      sentAt: null,
    })
    .execute();

  await subscriber("confirmed", "en");
  await subscriber("confirmed", "en");
  await subscriber("confirmed", "zh");
  await subscriber("confirmed", "both");
  await subscriber("confirmed", "zh", true);
  await subscriber("pending", "en");
  await subscriber("unsubscribed", "both");
});
afterAll(async () => {
  await database.cleanup();
});

describe("sendCounts", () => {
  it("counts each send's mails by state in one grouped query", async () => {
    const counts = await sendCounts(database.db, [busy, done, empty]);
    expect(counts.get(busy)).toEqual({ queued: 4, sent: 3, failed: 2, cancelled: 1 });
    expect(counts.get(done)).toEqual({ queued: 0, sent: 2, failed: 0, cancelled: 0 });
    expect(counts.has(empty)).toBe(false);
    expect((await sendCounts(database.db, [])).size).toBe(0);
  });
});

describe("listSendsForAdmin", () => {
  it("lists sends newest first with both titles and their counts", async () => {
    const page = await listSendsForAdmin(database.db, { page: 1, pageSize: 10 });
    expect(page.total).toBe(4);
    expect(page.items.map((s) => s.id)).toEqual([empty, busy, done, orphan]);
    const [first, second, third, fourth] = page.items;
    expect(first).toMatchObject({ status: "preparing", titles: { en: "Just started", zh: null } });
    expect(first?.counts).toEqual({ queued: 0, sent: 0, failed: 0, cancelled: 0 });
    expect(second).toMatchObject({ recipients: 10, titles: { en: "Hello", zh: "你好" } });
    expect(second?.counts).toEqual({ queued: 4, sent: 3, failed: 2, cancelled: 1 });
    expect(third?.titles).toEqual({ en: null, zh: "只有中文" });
    expect(fourth?.titles).toEqual({ en: null, zh: null });
    const paged = await listSendsForAdmin(database.db, { page: 2, pageSize: 3 });
    expect(paged.items.map((s) => s.id)).toEqual([orphan]);
  });

  it("lists only the sends with failed mails when asked, and counts them", async () => {
    const failed = await listSendsForAdmin(database.db, { page: 1, pageSize: 10, failedOnly: true });
    expect(failed.total).toBe(1);
    expect(failed.items.map((s) => s.id)).toEqual([busy]);
    expect(await countSendsWithFailures(database.db)).toBe(1);
  });

  it("reads one send, or null", async () => {
    expect((await getSendForAdmin(database.db, busy))?.counts.failed).toBe(2);
    expect(await getSendForAdmin(database.db, "nosuchsend0000000000")).toBeNull();
  });
});

describe("failedMailsForSend", () => {
  it("lists a send's failures with the server's reply and attempts, paged", async () => {
    const first = await failedMailsForSend(database.db, busy, { page: 1, pageSize: 1 });
    expect(first).toMatchObject({ total: 2, pageCount: 2 });
    expect(first.items).toEqual([
      { id: expect.any(String), recipient: "failed-0@example.test", lastError: "550 5.1.1 no such user", attempts: 2 },
    ]);
    expect((await failedMailsForSend(database.db, done, { page: 1, pageSize: 10 })).total).toBe(0);
  });
});

describe("newsletterAudience", () => {
  it("counts the confirmed by language, the bounced apart, and the pending", async () => {
    expect(await newsletterAudience(database.db)).toEqual({
      confirmed: 4,
      en: 2,
      zh: 1,
      both: 1,
      bounced: 1,
      pending: 1,
    });
  });
});
