import { describe, expect, it } from "vitest";
import {
  flipChar,
  get,
  mailCaptureForFile,
  nextIp,
  PASSWORD,
  postForm,
  register,
  rootUser,
  type Site,
  signIn,
  siteForBlock,
  uniqueEmail,
  userRow,
  verifiedAccount,
  verifyByMail,
} from "../setup/auth-site.ts";
import { testDialect } from "../setup/test-db.ts";

// Attacks on becoming admin, against the production server over HTTP: the ADMIN_EMAILS
// rule (a verified, listed e-mail, checked on every request) and the first-run setup link
// (wrong, used and stale tokens). Every refusal is checked three ways: a clear 4xx, no
// session cookie, and nothing changed in the database. Sign-in and sessions are attacked
// in auth-sign-in.test.ts.

const mail = mailCaptureForFile();

describe(`admin rule (${testDialect()})`, () => {
  let site: Site;
  const boss = "boss@example.test";
  siteForBlock(mail, { ADMIN_EMAILS: "  Boss@Example.TEST ", TRUST_PROXY: "true" }, (started) => {
    site = started;
  });

  it("is admin only with a verified e-mail listed in admins, checked on every request", async () => {
    // ADMIN_EMAILS is stored trimmed and lower-cased; no setup link is printed.
    const admins = await site.db.selectFrom("admins").select(["email", "source"]).execute();
    expect(admins).toEqual([{ email: boss, source: "env" }]);
    expect(site.server.output()).not.toContain("/setup?token=");

    // Registered in yet another case; unverified, it cannot even sign in.
    const since = Date.now();
    await register(site, "BOSS@example.Test");
    expect((await userRow(site.db, boss))?.email).toBe(boss);
    const early = await postForm(site, "/login", { email: boss, password: PASSWORD }, { ip: nextIp() });
    expect(early.status).toBe(403);
    expect(early.session).toBeNull();

    await verifyByMail(site, boss, since);
    const cookie = await signIn(site, " Boss@Example.TEST ");
    expect(await rootUser(site, cookie)).toMatchObject({ email: boss, isAdmin: true, emailVerified: true });

    // An unverified e-mail is never admin, even when listed.
    await site.db.updateTable("users").set({ emailVerified: 0 }).where("email", "=", boss).execute();
    expect(await rootUser(site, cookie)).toMatchObject({ email: boss, isAdmin: false, emailVerified: false });
    await site.db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", boss).execute();
    expect(await rootUser(site, cookie)).toMatchObject({ isAdmin: true });

    // Removing the admins row removes admin on the next request.
    await site.db.deleteFrom("admins").where("email", "=", boss).execute();
    expect(await rootUser(site, cookie)).toMatchObject({ email: boss, isAdmin: false });

    // An account without an e-mail is never admin, even if an empty e-mail were listed.
    const now = new Date().toISOString();
    await site.db.insertInto("admins").values({ email: "", source: "cli", createdAt: now, updatedAt: now }).execute();
    await site.db.updateTable("users").set({ email: "" }).where("email", "=", boss).execute();
    try {
      expect(await rootUser(site, cookie)).toMatchObject({ email: "", isAdmin: false });
    } finally {
      await site.db.updateTable("users").set({ email: boss }).where("email", "=", "").execute();
      await site.db.deleteFrom("admins").where("email", "=", "").execute();
    }
  });

  it("does not make another verified account admin", async () => {
    const email = await verifiedAccount(site, "reader");
    const cookie = await signIn(site, email);
    expect(await rootUser(site, cookie)).toMatchObject({ email, isAdmin: false, emailVerified: true });
  });
});

describe(`first-run setup link (${testDialect()})`, () => {
  let site: Site;
  const server = siteForBlock(mail, {}, (started) => {
    site = started;
  });

  const setupToken = (output: string) => /\/setup\?token=([\w-]+)/.exec(output)?.[1] ?? null;
  const userCount = async () => (await site.db.selectFrom("users").select("id").execute()).length;

  it("creates the first admin once, and refuses wrong, used and stale links", async () => {
    const token = setupToken(site.server.output());
    expect(token).not.toBeNull();
    const good = token ?? "";
    const wrong = flipChar(good);
    const existing = await verifiedAccount(site, "existing");
    const users = await userCount();

    // A wrong token: 404, whatever the e-mail (an existing one must not show through).
    expect((await get(site, `/setup?token=${wrong}`)).status).toBe(404);
    for (const email of [uniqueEmail("intruder"), existing]) {
      const res = await postForm(site, "/setup", { token: wrong, name: "Admin", email, password: PASSWORD });
      expect(res.status).toBe(404);
      expect(res.session).toBeNull();
    }
    expect(await userCount()).toBe(users);

    // While an admin exists (added by another instance or the CLI), the link is dead.
    const now = new Date().toISOString();
    await site.db
      .insertInto("admins")
      .values({ email: "other@example.test", source: "cli", createdAt: now, updatedAt: now })
      .execute();
    expect((await get(site, `/setup?token=${good}`)).status).toBe(404);
    const stale = await postForm(site, "/setup", {
      token: good,
      name: "Admin",
      email: uniqueEmail("late"),
      password: PASSWORD,
    });
    expect(stale.status).toBe(404);
    expect(stale.session).toBeNull();
    expect(await userCount()).toBe(users);
    await site.db.deleteFrom("admins").execute();

    // The real link: a verified admin, signed in (even while registration is closed).
    const { updateSiteSettings } = await import("../../app/server/site/site-settings.server.ts");
    await updateSiteSettings(site.db, { registrationOpen: false });
    expect((await get(site, `/setup?token=${good}`)).status).toBe(200);
    const admin = uniqueEmail("first-admin");
    const created = await postForm(site, "/setup", { token: good, name: "Admin", email: admin, password: PASSWORD });
    expect(created.status).toBe(302);
    expect(created.location).toBe("/");
    expect(await rootUser(site, created.session)).toMatchObject({ email: admin, isAdmin: true, emailVerified: true });
    expect(await site.db.selectFrom("admins").select(["email", "source"]).execute()).toEqual([
      { email: admin, source: "setup" },
    ]);

    await updateSiteSettings(site.db, { registrationOpen: true });

    // Used once: refused after.
    expect((await get(site, `/setup?token=${good}`)).status).toBe(404);
    const replay = await postForm(site, "/setup", {
      token: good,
      name: "Admin",
      email: uniqueEmail("second"),
      password: PASSWORD,
    });
    expect(replay.status).toBe(404);
    expect(replay.session).toBeNull();
    expect(await userCount()).toBe(users + 1);

    // With an admin, a restart prints no link.
    await server.restart();
    expect(setupToken(site.server.output())).toBeNull();
    expect(site.server.output()).not.toContain("No admin yet");
  });
});
