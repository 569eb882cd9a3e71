import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { type MailCapture, startMailCapture } from "../../../tests/setup/mail-capture.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../accounts/admins.server.ts";
import { createAuth } from "../accounts/auth.server.ts";
import { LOCALE_HEADER } from "../accounts/auth-config.server.ts";
import { callAuth } from "../accounts/guard.server.ts";
import { dbRateLimitStore } from "../http/rate-limit.server.ts";
import { subscribe } from "../newsletter/subscriptions.server.ts";
import { queueModerationNotices } from "../notify/moderation.server.ts";
import { type Env, parseEnv } from "../platform/env.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { DEFAULT_SETTINGS, updateSiteSettings } from "../site/site-settings.server.ts";
import type { MailMessage } from "./message.server.ts";
import { deliverOne, dueMail, queueMail } from "./outbox.server.ts";
import { fromHeader, mailboxOf, siteNameIn } from "./site-name.server.ts";
import { createMailTransport, type MailTransport } from "./transport.server.ts";

// Issue 28: after the owner renames the site, every mail says the new name, in the
// recipient's language, in its subject, its body and as the sender's display name.

const RENAMED = { en: "Quill Notes", zh: "羽毛笔记" };
const silent = pino({ level: "silent" });
let database: TestDatabase;
let capture: MailCapture;
let smtp: MailTransport;

beforeAll(async () => {
  database = await createTestDatabase();
  capture = await startMailCapture();
  smtp = createMailTransport(
    { smtpUrl: capture.smtpUrl, mailFrom: "blog@example.test", dataDir: "/nonexistent" } as Env,
    silent,
  );
  await updateSiteSettings(database.db, { siteName: RENAMED });
});
afterAll(async () => {
  await updateSiteSettings(database.db, { siteName: DEFAULT_SETTINGS.siteName });
  await smtp.close?.();
  await capture.close();
  await database.cleanup();
});
beforeEach(async () => {
  await database.db.deleteFrom("mailOutbox").execute();
  capture.messages.length = 0;
});

const queued = () => database.db.selectFrom("mailOutbox").selectAll().orderBy("createdAt").execute();

describe("fromHeader", () => {
  it("puts the site's name before MAIL_FROM's address, whether or not MAIL_FROM had a name", () => {
    expect(fromHeader("no-reply@example.test", "Quill")).toEqual({ name: "Quill", address: "no-reply@example.test" });
    expect(fromHeader("Inkwell <no-reply@example.test>", "羽毛笔")).toEqual({
      name: "羽毛笔",
      address: "no-reply@example.test",
    });
    expect(fromHeader("Inkwell <no-reply@example.test>", null)).toBe("Inkwell <no-reply@example.test>");
    expect(fromHeader("a@example.test", "Line\r\nBcc: x@evil.test")).toEqual({
      name: "Line Bcc: x@evil.test",
      address: "a@example.test",
    });
    expect(mailboxOf("Blog <blog@example.test>")).toBe("blog@example.test");
  });

  it("falls back to the built-in name when the setting is blank", () => {
    expect(siteNameIn({ siteName: { en: " ", zh: "站" } }, "en")).toBe(DEFAULT_SETTINGS.siteName.en);
    expect(siteNameIn({ siteName: { en: " ", zh: "站" } }, "zh")).toBe("站");
  });
});

describe(`mail after the site was renamed (${testDialect()})`, () => {
  it("account mail: subject, body and sender name in the reader's language", async () => {
    const sent: MailMessage[] = [];
    const auth = createAuth({
      db: database.db,
      env: parseEnv({
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "inkwell-site-name-")),
        PUBLIC_URL: "http://blog.example.test",
        LOG_LEVEL: "silent",
      }),
      mailer: { send: async (m) => void sent.push(m), target: "test" },
      log: silent,
    });
    for (const [locale, email] of [
      ["en", "renamed-en@example.test"],
      ["zh", "renamed-zh@example.test"],
    ] as const) {
      const result = await callAuth(() =>
        auth.api.signUpEmail({
          body: { email, password: "long enough 1", name: `Reader ${locale}` },
          headers: new Headers({ [LOCALE_HEADER]: locale }),
          asResponse: true,
        }),
      );
      expect(result.ok).toBe(true);
    }
    await expect.poll(() => sent.length).toBe(2);
    const [en, zh] = sent;
    expect(en?.subject).toContain(RENAMED.en);
    expect(en?.text).toContain(RENAMED.en);
    expect(en?.fromName).toBe(RENAMED.en);
    expect(zh?.subject).toContain(RENAMED.zh);
    expect(zh?.text).toContain(RENAMED.zh);
    expect(zh?.fromName).toBe(RENAMED.zh);
    for (const m of sent) expect(`${m.subject}${m.text}`).not.toMatch(/Inkwell|墨水博客/);
    // The account keeps the name it chose and got its author-page handle from it.
    const user = await database.db
      .selectFrom("users")
      .select(["name", "handle"])
      .where("email", "=", "renamed-en@example.test")
      .executeTakeFirst();
    expect(user).toEqual({ name: "Reader en", handle: "reader-en" });
  });

  it("subscription and moderation mail say the new name and are queued with it as sender", async () => {
    await subscribe(
      {
        db: database.db,
        mailer: {
          send: async (m, o) => void (await queueMail(database.db, { key: `s:${m.to}`, kind: o?.kind ?? "x", ...m })),
          target: "test",
        },
        log: silent,
        publicUrl: "http://blog.example.test",
        rateLimitMultiplier: 1,
        clientIp: "192.0.2.1",
        rateLimits: dbRateLimitStore(database.db),
      },
      "reader@example.test",
      "zh",
    );
    const authorId = await insertUser(database.db, { email: "mod-admin@example.test", name: "Admin" });
    await addAdmins(database.db, ["mod-admin@example.test"], "cli");
    const postId = await createPost(database.db, {
      slug: "renamed-site",
      authorId,
      status: "published",
      publishedAt: "2026-10-01T08:00:00.000Z",
      translations: [{ locale: "en", title: "A post" }],
    });
    const commentId = "c".repeat(20);
    await database.db
      .insertInto("comments")
      .values({
        id: commentId,
        postId,
        parentId: null,
        authorId,
        bodyMarkdown: "Waiting",
        bodyHtml: "<p>Waiting</p>",
        status: "pending",
        createdAt: "2026-10-01T09:00:00.000Z",
        updatedAt: "2026-10-01T09:00:00.000Z",
      })
      .execute();
    await queueModerationNotices(
      database.db,
      {
        mailer: {
          send: async (m, o) =>
            void (await queueMail(o?.trx ?? database.db, { key: o?.key ?? "m", kind: o?.kind ?? "x", ...m })),
          target: "test",
        },
        publicUrl: "http://blog.example.test",
        secret: "s".repeat(32),
      },
      commentId,
    );
    const rows = await queued();
    expect(rows.map((r) => r.kind).sort()).toEqual(["moderation", "subscribe"]);
    const sub = rows.find((r) => r.kind === "subscribe");
    expect(sub?.fromName).toBe(RENAMED.zh);
    expect(`${sub?.subject}${sub?.text}`).toContain(RENAMED.zh);
    const mod = rows.find((r) => r.kind === "moderation");
    // The admin has not used the site yet: the site's default language (Chinese).
    expect(mod?.fromName).toBe(RENAMED.zh);
    expect(`${mod?.subject}${mod?.text}`).toContain(RENAMED.zh);
  });

  it("delivers with the site's name as the From display name and MAIL_FROM's address", async () => {
    await queueMail(database.db, {
      key: "from:1",
      kind: "test",
      to: "reader@example.test",
      subject: "Hello",
      text: "Body",
      fromName: RENAMED.en,
    });
    const [due] = await dueMail(database.db, 10);
    if (!due) throw new Error("nothing due");
    expect(await deliverOne(database.db, smtp, due)).toBe("sent");
    const [mail] = capture.messages;
    expect(mail?.from).toBe("blog@example.test");
    expect(mail?.headers.from).toBe(`${RENAMED.en} <blog@example.test>`);
  });
});
