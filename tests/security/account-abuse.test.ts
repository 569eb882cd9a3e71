import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/server/db/db.server.ts";
import { type MailCapture, startMailCapture, waitForMail } from "../setup/mail-capture.ts";
import type { ServerProcess } from "../setup/server-process.ts";
import { cookieOf, type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";

// Hardening round 2 (issue 19), findings 1, 2 and 8, against one production server with
// real SMTP and the default rate limits (TRUST_PROXY on, so each request can come from
// its own address and only the per-account and per-address limits stand).

const PASSWORD = "correct horse battery staple";
const LINK = /https?:\/\/[^\s]+\/verify-email\?token=[^\s]+/;

describe(`account abuse (${testDialect()})`, () => {
  let site: Site;
  let server: ServerProcess;
  let mail: MailCapture;
  let db: DB;
  let ipCounter = 0;
  const nextIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;
  const mailsTo = (address: string) => mail.messages.filter((m) => m.to.includes(address));

  const api = (path: string, body: unknown, cookie = "") =>
    site.authApi(path, body, cookie, { "x-forwarded-for": nextIp() });

  /** A verified, signed-in account; its session cookie. */
  async function account(name: string): Promise<{ email: string; cookie: string }> {
    const email = `${name.toLowerCase().replace(/\W+/g, "")}-${randomBytes(3).toString("hex")}@example.test`;
    expect((await api("sign-up/email", { email, password: PASSWORD, name })).status).toBe(200);
    await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
    const signIn = await api("sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    return { email, cookie: cookieOf(signIn) };
  }

  /** Asks to move an account to `newEmail`; the confirmation link mailed to its current address. */
  async function changeEmailLink(from: { email: string; cookie: string }, newEmail: string): Promise<string> {
    const sent = Date.now();
    expect((await api("change-email", { newEmail, callbackURL: "/account" }, from.cookie)).status).toBe(200);
    const confirmation = await waitForMail(mail.apiUrl, from.email, /change/i, { after: sent });
    const link = LINK.exec(confirmation.text)?.[0];
    if (!link) throw new Error("no link in the confirmation mail");
    return new URL(link).searchParams.get("token") ?? "";
  }

  beforeAll(async () => {
    mail = await startMailCapture();
    site = await startSite({
      SMTP_URL: mail.smtpUrl,
      TRUST_PROXY: "true",
      // Listed as an admin, with no account yet: the address a reader would race for.
      ADMIN_EMAILS: "chief@example.test",
    });
    ({ server, db } = site);
  });

  afterAll(async () => {
    await site?.stop();
    await mail?.close();
  });

  it("spends a change-email link once: replaying it mails the new address once, not 30 times", async () => {
    const reader = await account("Replayer");
    const victim = `victim-${randomBytes(3).toString("hex")}@example.test`;
    const token = await changeEmailLink(reader, victim);
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${server.url}/api/auth/verify-email?token=${encodeURIComponent(token)}`, {
        headers: { "x-forwarded-for": nextIp() },
        redirect: "manual",
      });
      await res.arrayBuffer();
      answers.push(res.status);
    }
    expect(
      answers.slice(1).every((s) => s === 400 || s === 429),
      answers.join(","),
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 1500)); // the outbox worker's next ticks
    expect(mailsTo(victim).length).toBeLessThanOrEqual(1);
  });

  it("never lets change-email claim an address listed as an admin's", async () => {
    const reader = await account("Claimer");
    const refused = await api(
      "change-email",
      { newEmail: "chief@example.test", callbackURL: "/account" },
      reader.cookie,
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "EMAIL_RESERVED" });
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo("chief@example.test")).toEqual([]);
    // No confirmation to the reader either (their sign-up's verification may still be arriving).
    expect(mailsTo(reader.email).filter((m) => /change/i.test(m.subject))).toEqual([]);
  });

  it("tells the owner of a new address that it is being attached to someone else's account, by name", async () => {
    const reader = await account("Mallory Example");
    const target = `owner-${randomBytes(3).toString("hex")}@example.test`;
    const token = await changeEmailLink(reader, target);
    const sent = Date.now();
    const res = await fetch(`${server.url}/api/auth/verify-email?token=${encodeURIComponent(token)}`, {
      headers: { "x-forwarded-for": nextIp() },
      redirect: "manual",
    });
    expect(res.status).toBeLessThan(400);
    const notice = await waitForMail(mail.apiUrl, target, /./, { after: sent });
    expect(notice.subject).toContain("Mallory Example");
    expect(notice.text).toContain("Mallory Example");
    expect(notice.text).toMatch(/already exists/);
  });

  it("counts wrong current passwords on the API against the account, as /account does", async () => {
    const reader = await account("Guessed");
    const answers: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await api(
        "change-password",
        { currentPassword: `wrong guess ${i}`, newPassword: "another long password" },
        reader.cookie,
      );
      await res.arrayBuffer();
      answers.push(res.status);
    }
    // The sign-in above counted once: nine guesses are answered, the tenth and later are not.
    expect(
      answers.slice(0, 9).every((s) => s === 400 || s === 401),
      answers.join(","),
    ).toBe(true);
    expect(
      answers.slice(9).every((s) => s === 429),
      answers.join(","),
    ).toBe(true);

    const other = await account("Deleted");
    const deletes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await api("delete-user", { password: `wrong ${i}` }, other.cookie);
      await res.arrayBuffer();
      deletes.push(res.status);
    }
    expect(
      deletes.slice(9).every((s) => s === 429),
      deletes.join(","),
    ).toBe(true);
  });
});
