import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import { nowIso } from "../../app/server/db/db.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { type MailCapture, startMailCapture } from "../setup/mail-capture.ts";
import { startServer } from "../setup/server-process.ts";
import { cookieOf, type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";

// The newsletter through the real server and a real SMTP peer: a post reaches each
// subscriber once in their language, survives a kill -9 in the middle of a send,
// and the mail's one-click unsubscribe and language links work.

async function addSubscribers(db: DB, count: number, languages: "en" | "zh" | "both" = "en", prefix = "reader") {
  const at = nowIso();
  const rows = Array.from({ length: count }, (_, i) => {
    const id = newId();
    return {
      id,
      email: `${prefix}${i}@example.test`,
      locale: "en" as const,
      languages,
      status: "confirmed" as const,
      confirmTokenHash: `c-${id}`,
      unsubscribeTokenHash: `u-${id}`,
      confirmedAt: at,
      unsubscribedAt: null,
      createdAt: at,
      updatedAt: at,
    };
  });
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto("subscribers")
      .values(rows.slice(i, i + 200))
      .execute();
  }
}

/** Publishes a bilingual post with the newsletter box ticked, as the editor does. */
async function publishWithNewsletter(db: DB): Promise<string> {
  const id = newId();
  // The lifecycle starts the newsletter of a post that goes live with the box ticked.
  await createPost(db, {
    id,
    slug: `news-${id}`,
    authorId: null,
    status: "published",
    publishedAt: nowIso(),
    newsletter: true,
    translations: [
      { locale: "en", title: "Fresh bread", summary: "A loaf", bodyHtml: "<p>Flour and water.</p>" },
      { locale: "zh", title: "新鲜面包", summary: "一条面包", bodyHtml: "<p>面粉和水。</p>" },
    ],
  });
  return id;
}

async function until<T>(what: string, probe: () => T | Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`newsletter through the server (${testDialect()})`, () => {
  let mail: MailCapture;
  let site: Site;

  beforeAll(async () => {
    mail = await startMailCapture();
    site = await startSite({ SMTP_URL: mail.smtpUrl, MAIL_RATE_PER_MINUTE: "100000" });
  });

  afterAll(async () => {
    await site?.stop();
    await mail?.close();
  });

  it("mails every subscriber exactly once when a ticked draft is published from the admin posts list", async () => {
    const READERS = 5;
    await addSubscribers(site.db, READERS, "en", "listed");
    const id = await createPost(site.db, {
      slug: "published-from-the-list",
      authorId: null,
      status: "draft",
      publishedAt: null,
      newsletter: true,
      translations: [{ locale: "en", title: "Published from the list", bodyHtml: "<p>Rye.</p>" }],
    });
    // An admin session, as the list's Publish button sends it.
    const email = "lister@example.test";
    const password = "correct horse battery staple";
    expect((await site.authApi("sign-up/email", { email, password, name: "Lister" })).status).toBe(200);
    await site.db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
    await addAdmins(site.db, [email], "cli");
    const session = await site.authApi("sign-in/email", { email, password });
    expect(session.status).toBe(200);
    const published = await fetch(`${site.server.url}/admin/blog`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: site.server.url,
        cookie: cookieOf(session),
      },
      body: new URLSearchParams({ intent: "publish", id, back: "/admin/blog" }).toString(),
    });
    expect(published.status).toBe(302);

    // Every mail of the send marked sent: the capture has had each of them by then.
    const outbox = await until(
      "the send's mails to go out",
      () =>
        site.db
          .selectFrom("mailOutbox")
          .select(["status", "recipient"])
          .where("key", "like", `newsletter:${id}:%`)
          .execute(),
      (rows) => rows.length === READERS && rows.every((r) => r.status === "sent"),
    );
    expect(outbox).toHaveLength(READERS);
    const counts = new Map<string, number>();
    for (const m of mail.messages.filter((m) => m.subject === "Published from the list"))
      for (const to of m.to) counts.set(to, (counts.get(to) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual(
      Object.fromEntries(Array.from({ length: READERS }, (_, i) => [`listed${i}@example.test`, 1])),
    );
    // The next test counts its own readers' mail.
    await site.db
      .updateTable("subscribers")
      .set({ status: "unsubscribed", unsubscribedAt: nowIso() })
      .where("email", "like", "listed%")
      .execute();
  }, 90_000);

  it("mails each reader their version; one-click unsubscribes, the page changes the language", async () => {
    await addSubscribers(site.db, 1, "en", "en");
    await addSubscribers(site.db, 1, "zh", "zh");
    await addSubscribers(site.db, 1, "both", "both");
    await publishWithNewsletter(site.db);
    const got = await until(
      "three mails",
      () => mail.messages.filter((m) => /Fresh bread|新鲜面包/.test(m.subject)),
      (list) => list.length >= 3,
    );
    const subjectOf = (to: string) => got.find((m) => m.to.includes(to))?.subject;
    expect(subjectOf("en0@example.test")).toBe("Fresh bread");
    expect(subjectOf("zh0@example.test")).toBe("新鲜面包");
    expect(subjectOf("both0@example.test")).toBe("Fresh bread");

    const zhMail = got.find((m) => m.to.includes("zh0@example.test"));
    const listed = /<(http[^>]+\/unsubscribe\?token=[^>]+)>/.exec(zhMail?.headers["list-unsubscribe"] ?? "")?.[1];
    if (!listed) throw new Error("no unsubscribe link");
    // PUBLIC_URL is http://localhost:port; the test talks to 127.0.0.1.
    const { pathname, search } = new URL(listed);
    expect(pathname).toBe("/zh/unsubscribe");
    const link = `${site.server.url}${pathname}${search}`;
    const statusOf = async (email: string) =>
      await site.db
        .selectFrom("subscribers")
        .select(["status", "languages"])
        .where("email", "=", email)
        .executeTakeFirstOrThrow();

    // Opening the link changes nothing (mail scanners follow links).
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="languages"');
    expect((await statusOf("zh0@example.test")).status).toBe("confirmed");

    // The language form on that page.
    const token = new URL(link).searchParams.get("token") ?? "";
    const changed = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "languages", token, languages: "both" }),
    });
    expect(changed.status).toBe(200);
    expect(await statusOf("zh0@example.test")).toEqual({ status: "confirmed", languages: "both" });
    const refused = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "languages", token, languages: "fr" }),
    });
    expect(refused.status).toBe(400);

    // RFC 8058: a mail client's POST with only "List-Unsubscribe=One-Click", no Origin, no cookie.
    const oneClick = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect((await statusOf("zh0@example.test")).status).toBe("unsubscribed");
    const forged = await fetch(`${site.server.url}/zh/unsubscribe?token=${encodeURIComponent(`${token}x`)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(forged.status).toBe(400);
  }, 60_000);
});

describe(`a newsletter send killed mid-way (${testDialect()})`, () => {
  let mail: MailCapture;
  let site: Site;
  const RECIPIENTS = 1000;

  beforeAll(async () => {
    mail = await startMailCapture();
  });

  afterAll(async () => {
    await site?.stop();
    await mail?.close();
  });

  it("reaches every subscriber exactly once across kill -9 and a restart", async () => {
    const env = { SMTP_URL: mail.smtpUrl, MAIL_RATE_PER_MINUTE: "100000" };
    site = await startSite(env);
    await addSubscribers(site.db, RECIPIENTS);
    const sendsBefore = mail.messages.length;
    await publishWithNewsletter(site.db);
    const captured = () => mail.messages.length - sendsBefore;
    await until("a third of the send", captured, (n) => n >= RECIPIENTS / 3);
    await site.server.stop("SIGKILL");
    const atKill = captured();
    expect(atKill).toBeLessThan(RECIPIENTS);

    // The same data directory and database, a new process (its lease waits for the dead one's to expire).
    const restarted = await startServer({
      ...env,
      DATA_DIR: site.dataDir,
      DATABASE_URL: site.databaseUrl,
      LOG_REQUESTS: "false",
    });
    site.server = restarted;
    const recipients = () =>
      mail.messages.slice(sendsBefore).flatMap((m) => m.to.filter((to) => to.startsWith("reader")));
    await until(
      "every reader",
      () => new Set(recipients()).size,
      (n) => n === RECIPIENTS,
      90_000,
    );
    const counts = new Map<string, number>();
    for (const to of recipients()) counts.set(to, (counts.get(to) ?? 0) + 1);
    const twice = [...counts.values()].filter((n) => n > 1);
    // At most the one mail in flight at the kill went out twice.
    expect(twice.length).toBeLessThanOrEqual(1);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);

    // The admin's counts: every mail of the send is marked sent.
    const byStatus = await until(
      "the outbox to settle",
      () =>
        site.db
          .selectFrom("mailOutbox")
          .select(["status", (eb) => eb.fn.countAll<number | string>().as("n")])
          .where("kind", "=", "newsletter")
          .groupBy("status")
          .execute(),
      (rows) => rows.length === 1 && rows[0]?.status === "sent",
    );
    expect(Number(byStatus[0]?.n)).toBe(RECIPIENTS);
    const send = await site.db.selectFrom("newsletterSends").selectAll().executeTakeFirstOrThrow();
    expect([send.status, Number(send.recipients)]).toEqual(["sending", RECIPIENTS]);
  }, 180_000);
});
