import { beforeEach, describe, expect, it } from "vitest";
import {
  alertText,
  flipChar,
  get,
  mailCaptureForFile,
  navUser,
  nextIp,
  PASSWORD,
  passwordHash,
  postForm,
  postJson,
  type Reply,
  register,
  rootUser,
  SESSION_COOKIE,
  type Site,
  sessionCount,
  sessionEmail,
  signIn,
  siteForBlock,
  uniqueEmail,
  userRow,
  verifiedAccount,
} from "../setup/auth-site.ts";
import { linkIn, waitForMail } from "../setup/mail-capture.ts";
import { testDialect } from "../setup/test-db.ts";

// Attacks on signing in and on the session it gives, against the production server over
// HTTP: brute force (with and without a trusted proxy), telling accounts apart, session
// fixation, sign-out, reset and verification tokens, huge passwords and open redirects.
// Every refusal is checked three ways: a clear 4xx, no session cookie, and nothing changed
// in the database. Who becomes admin is attacked in auth-admin.test.ts.

const mail = mailCaptureForFile();

describe(`brute force, TRUST_PROXY unset (${testDialect()})`, () => {
  let site: Site;
  siteForBlock(mail, {}, (started) => {
    site = started;
  });
  // Every request here comes from 127.0.0.1: each case starts with empty counters.
  beforeEach(async () => {
    await site.db.deleteFrom("rateLimits").execute();
  });

  /** Twenty wrong passwords in a row: 429 with Retry-After before the 20th, never a session. */
  async function hammer(attempt: (i: number) => Promise<Reply>, okStatus: number) {
    const replies: Reply[] = [];
    for (let i = 0; i < 20; i++) replies.push(await attempt(i));
    const statuses = replies.map((r) => r.status);
    const first = statuses.indexOf(429);
    expect(first, `statuses: ${statuses.join(",")}`).toBeGreaterThan(0);
    expect(first).toBeLessThan(19);
    expect(statuses.slice(0, first).every((s) => s === okStatus)).toBe(true);
    expect(statuses.slice(first).every((s) => s === 429)).toBe(true);
    for (const r of replies.slice(first)) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const r of replies) expect(r.session).toBeNull();
    return replies;
  }

  it("stops wrong passwords on /login with 429 and Retry-After, and then even the right one", async () => {
    const email = await verifiedAccount(site, "brute-form");
    await site.db.deleteFrom("rateLimits").execute();
    const replies = await hammer((i) => postForm(site, "/login", { email, password: `wrong password ${i}` }), 400);
    // The form itself says so (not the error page).
    expect(alertText(replies[19]?.text ?? "")).toMatch(/^Too many attempts\. Please wait \d+ seconds/);
    const right = await postForm(site, "/login", { email, password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.session).toBeNull();
    expect(await sessionCount(site.db, email)).toBe(0);
  });

  it("stops wrong passwords on POST /api/auth/sign-in/email with 429 and Retry-After", async () => {
    const email = await verifiedAccount(site, "brute-api");
    await site.db.deleteFrom("rateLimits").execute();
    const replies = await hammer(
      (i) => postJson(site, "/api/auth/sign-in/email", { email, password: `wrong password ${i}` }),
      401,
    );
    expect(JSON.parse(replies[19]?.text ?? "{}")).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    const right = await postJson(site, "/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.session).toBeNull();
    expect(await sessionCount(site.db, email)).toBe(0);
  });

  it("does not believe a new X-Forwarded-For on every attempt", async () => {
    const email = await verifiedAccount(site, "brute-xff");
    await site.db.deleteFrom("rateLimits").execute();
    await hammer((i) => postForm(site, "/login", { email, password: `wrong ${i}` }, { ip: nextIp() }), 400);
    expect(await sessionCount(site.db, email)).toBe(0);
  });

  it("counts attempts on many accounts from one address, whatever X-Forwarded-For says", async () => {
    // A different e-mail each time: only the per-address limit can stop this, and
    // it can only do so if the spoofed header is ignored.
    await hammer(
      (i) =>
        postForm(site, "/login", { email: uniqueEmail(`spray${i}`), password: "wrong password" }, { ip: nextIp() }),
      400,
    );
    const limited = await site.db.selectFrom("rateLimits").select("key").where("key", "like", "signin:ip:%").execute();
    expect(limited.map((r) => r.key)).toEqual(["signin:ip:127.0.0.1"]);
  });
});

describe(`account security (${testDialect()})`, () => {
  let site: Site;
  // TRUST_PROXY=true so that each test can act as its own client address
  // (X-Forwarded-For) and the per-address limits do not spill between tests.
  siteForBlock(mail, { TRUST_PROXY: "true" }, (started) => {
    site = started;
  });

  it("behind a trusted proxy, stops a rotating X-Forwarded-For by the per-account limit", async () => {
    for (const via of ["form", "api"] as const) {
      const email = await verifiedAccount(site, `brute-proxy-${via}`);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const ip = nextIp();
        const res =
          via === "form"
            ? await postForm(site, "/login", { email, password: `wrong ${i}` }, { ip })
            : await postJson(site, "/api/auth/sign-in/email", { email, password: `wrong ${i}` }, { ip });
        expect(res.session).toBeNull();
        if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        statuses.push(res.status);
      }
      const first = statuses.indexOf(429);
      expect(first, `${via}: ${statuses.join(",")}`).toBeGreaterThan(0);
      expect(first).toBeLessThan(19);
      // The account stays locked from yet another address, even with the right password.
      const right = await postForm(site, "/login", { email, password: PASSWORD }, { ip: nextIp() });
      expect(right.status).toBe(429);
      expect(right.session).toBeNull();
      expect(await sessionCount(site.db, email)).toBe(0);
    }
  });

  it("answers an unknown e-mail and a wrong password alike on /login", async () => {
    const email = await verifiedAccount(site, "enum-login");
    const wrong = await postForm(site, "/login", { email, password: "not the password" }, { ip: nextIp() });
    const unknown = await postForm(
      site,
      "/login",
      { email: uniqueEmail("nobody"), password: "not the password" },
      { ip: nextIp() },
    );
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(wrong.status);
    expect(alertText(wrong.text)).toBe("Invalid e-mail or password.");
    expect(alertText(unknown.text)).toBe(alertText(wrong.text));
    expect(wrong.session).toBeNull();
    expect(unknown.session).toBeNull();

    const wrongApi = await postJson(site, "/api/auth/sign-in/email", { email, password: "nope" }, { ip: nextIp() });
    const unknownApi = await postJson(
      site,
      "/api/auth/sign-in/email",
      { email: uniqueEmail("nobody"), password: "nope" },
      { ip: nextIp() },
    );
    expect(wrongApi.status).toBe(401);
    expect(unknownApi.status).toBe(wrongApi.status);
    expect(JSON.parse(unknownApi.text)).toEqual(JSON.parse(wrongApi.text));
    expect(await sessionCount(site.db, email)).toBe(0);
  });

  it("answers registering an existing e-mail like a new one, and mails the owner instead", async () => {
    const mainOf = (html: string, email: string) =>
      (/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? "").replaceAll(email, "EMAIL");
    const existing = await verifiedAccount(site, "enum-existing");
    const hashBefore = await passwordHash(site.db, existing);
    const fresh = uniqueEmail("enum-fresh");

    const since = Date.now();
    const forFresh = await postForm(
      site,
      "/register",
      { name: "Fresh", email: fresh, password: PASSWORD },
      { ip: nextIp() },
    );
    const forExisting = await postForm(
      site,
      "/register",
      { name: "Fresh", email: existing, password: "a different password" },
      { ip: nextIp() },
    );
    expect(forFresh.status).toBe(200);
    expect(forExisting.status).toBe(forFresh.status);
    expect(forExisting.headers.get("content-type")).toBe(forFresh.headers.get("content-type"));
    expect(mainOf(forExisting.text, existing)).toBe(mainOf(forFresh.text, fresh));
    expect(forExisting.session).toBeNull();

    const notice = await waitForMail(site.mail.apiUrl, existing, /^You already have/, { after: since });
    expect(notice.text).toContain("/forgot-password");
    // Nothing changed for the owner: one account, same password.
    const rows = await site.db.selectFrom("users").select("id").where("email", "=", existing).execute();
    expect(rows).toHaveLength(1);
    expect(await passwordHash(site.db, existing)).toBe(hashBefore);
    expect(await sessionCount(site.db, existing)).toBe(0);
  });

  it("does not keep a session cookie planted before sign-in", async () => {
    const victim = await verifiedAccount(site, "fixation-victim");
    const attacker = await verifiedAccount(site, "fixation-attacker");

    const planted = `${SESSION_COOKIE}=attacker-chosen-token.c2lnbmF0dXJl`;
    const res = await postForm(
      site,
      "/login",
      { email: victim, password: PASSWORD },
      { cookie: planted, ip: nextIp() },
    );
    expect(res.status).toBe(302);
    expect(res.session).not.toBeNull();
    expect(res.session).not.toBe(planted);
    expect(await sessionEmail(site, planted)).toBeNull();
    expect(await sessionEmail(site, res.session)).toBe(victim);

    // A real session of another account, planted in the victim's browser.
    const attackerCookie = await signIn(site, attacker);
    const again = await postForm(
      site,
      "/login",
      { email: victim, password: PASSWORD },
      { cookie: attackerCookie, ip: nextIp() },
    );
    expect(again.status).toBe(302);
    expect(again.session).not.toBeNull();
    expect(again.session).not.toBe(attackerCookie);
    expect(await sessionEmail(site, again.session)).toBe(victim);
    // The planted cookie never becomes the victim's: it is still only the attacker's.
    expect(await sessionEmail(site, attackerCookie)).toBe(attacker);
    expect(await sessionCount(site.db, attacker)).toBe(1);
  });

  it("makes the old cookie anonymous after POST /logout", async () => {
    const email = await verifiedAccount(site, "logout");
    const cookie = await signIn(site, email);
    // The header names the person (the name they registered with), never the address.
    expect(navUser((await get(site, "/", { cookie })).text)).toBe("Reader");

    // A cross-site POST cannot sign the reader out.
    const forged = await postForm(site, "/logout", {}, { cookie, origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(await sessionEmail(site, cookie)).toBe(email);

    const out = await postForm(site, "/logout", {}, { cookie });
    expect(out.status).toBe(302);
    expect(out.location).toBe("/");
    expect(out.clearsSession).toBe(true);

    // Replaying the old cookie: anonymous everywhere, and the session row is gone.
    expect(await sessionEmail(site, cookie)).toBeNull();
    expect(await rootUser(site, cookie)).toBeNull();
    const page = await get(site, "/", { cookie });
    expect(page.status).toBe(200);
    expect(navUser(page.text)).toBeNull();
    expect(await sessionCount(site.db, email)).toBe(0);
  });

  it("changes nothing on GET /logout", async () => {
    const email = await verifiedAccount(site, "get-logout");
    const cookie = await signIn(site, email);
    const res = await get(site, "/logout", { cookie });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/");
    expect(res.clearsSession).toBe(false);
    expect(res.session).toBeNull();
    expect(await sessionEmail(site, cookie)).toBe(email);
    expect(await sessionCount(site.db, email)).toBe(1);
  });

  /** Asks for a reset link and returns its token. */
  async function resetToken(email: string): Promise<string> {
    const since = Date.now();
    const res = await postForm(site, "/forgot-password", { email }, { ip: nextIp() });
    expect(res.status).toBe(200);
    const message = await waitForMail(site.mail.apiUrl, email, /^Reset your/, { after: since });
    return new URL(linkIn(message, "/reset-password")).searchParams.get("token") ?? "";
  }

  it("uses a reset token once, revokes other sessions, and refuses it the second time", async () => {
    const email = await verifiedAccount(site, "reset-twice");
    const otherDevice = await signIn(site, email);
    const token = await resetToken(email);

    const first = await postForm(site, "/reset-password", { token, password: "brand new password" });
    expect(first.status).toBe(200);
    expect(first.text).toContain("Your password was changed");
    expect(await sessionEmail(site, otherDevice)).toBeNull();
    expect(await sessionCount(site.db, email)).toBe(0);
    const hash = await passwordHash(site.db, email);

    const second = await postForm(site, "/reset-password", { token, password: "attacker password" });
    expect(second.status).toBe(400);
    expect(second.session).toBeNull();
    expect(await passwordHash(site.db, email)).toBe(hash);
    const attempt = await postForm(site, "/login", { email, password: "attacker password" }, { ip: nextIp() });
    expect(attempt.status).toBe(400);
    expect(attempt.session).toBeNull();
    await signIn(site, email, "brand new password");
  });

  it("refuses a tampered reset token and changes nothing", async () => {
    const email = await verifiedAccount(site, "reset-tampered");
    const token = await resetToken(email);
    const hash = await passwordHash(site.db, email);

    const res = await postForm(site, "/reset-password", { token: flipChar(token), password: "attacker password" });
    expect(res.status).toBe(400);
    expect(res.session).toBeNull();
    expect(await passwordHash(site.db, email)).toBe(hash);

    // The untampered token still works: the refusal above was the tampering.
    const real = await postForm(site, "/reset-password", { token, password: "brand new password" });
    expect(real.status).toBe(200);
    expect(await passwordHash(site.db, email)).not.toBe(hash);
  });

  it("refuses a tampered verification token and leaves the e-mail unverified", async () => {
    const email = uniqueEmail("verify-tampered");
    const since = Date.now();
    await register(site, email);
    const message = await waitForMail(site.mail.apiUrl, email, /Verify your e-mail/, { after: since });
    const token = new URL(linkIn(message, "/verify-email")).searchParams.get("token") ?? "";
    const [header = "", payload = "", signature = ""] = token.split(".");
    expect(signature.length).toBeGreaterThan(10);

    for (const forged of [
      `${header}.${payload}.${flipChar(signature)}`,
      `${header}.${flipChar(payload)}.${signature}`,
    ]) {
      const res = await postForm(site, "/verify-email", { token: forged });
      expect(res.status).toBe(400);
      expect(res.session).toBeNull();
      expect((await userRow(site.db, email))?.emailVerified).toBe(0);
    }
    const login = await postForm(site, "/login", { email, password: PASSWORD }, { ip: nextIp() });
    expect(login.status).toBe(403);
    expect(login.session).toBeNull();

    const real = await postForm(site, "/verify-email", { token });
    expect(real.status).toBe(200);
    expect((await userRow(site.db, email))?.emailVerified).toBe(1);
  });

  it("refuses a 1 MB password before hashing it and keeps serving", async () => {
    const email = await verifiedAccount(site, "huge-password");
    const huge = "x".repeat(1_000_000);

    const form = await postForm(site, "/login", { email, password: huge }, { ip: nextIp() });
    expect([400, 413]).toContain(form.status);
    expect(form.session).toBeNull();

    const api = await postJson(site, "/api/auth/sign-in/email", { email, password: huge }, { ip: nextIp() });
    expect([400, 413]).toContain(api.status);
    expect(api.session).toBeNull();

    const signUp = await postJson(
      site,
      "/api/auth/sign-up/email",
      { email: uniqueEmail("huge"), password: huge, name: "huge" },
      { ip: nextIp() },
    );
    expect([400, 413]).toContain(signUp.status);

    expect(await sessionCount(site.db, email)).toBe(0);
    expect((await get(site, "/healthz")).status).toBe(200);
    await signIn(site, email);
  });

  it.each(["//evil.example", "/\\evil.example", "/%5cevil.example", "javascript:alert(1)", "https://evil.example"])(
    "redirects to / after sign-in when redirectTo is %j",
    async (target) => {
      const email = await verifiedAccount(site, "redirect");
      const query = `?redirectTo=${encodeURIComponent(target)}`;
      // The form as the login page renders it for that link…
      const page = await get(site, `/login${query}`, { ip: nextIp() });
      expect(page.status).toBe(200);
      expect(page.text).toContain('name="redirectTo" value="/"');
      // …and a hand-made POST that keeps the hostile value.
      const res = await postForm(
        site,
        `/login${query}`,
        { email, password: PASSWORD, redirectTo: target },
        { ip: nextIp() },
      );
      expect(res.status).toBe(302);
      expect(res.location).toBe("/");
      // Already signed in, the login page sends the reader on: home too.
      const again = await get(site, `/login${query}`, { cookie: res.session, ip: nextIp() });
      expect(again.status).toBe(302);
      expect(again.location).toBe("/");
    },
  );

  it("keeps a same-origin redirectTo (control for the cases above)", async () => {
    const email = await verifiedAccount(site, "redirect-ok");
    const res = await postForm(site, "/login", { email, password: PASSWORD, redirectTo: "/posts?page=2" });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/posts?page=2");
  });
});
