import { randomBytes } from "node:crypto";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/env.server.ts";
import { linkIn, type MailCapture, startMailCapture, waitForMail } from "../setup/mail-capture.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Long on purpose (~790 lines): every attack here runs against the one server and
// mail catcher started below, which are the slow part to repeat per file.
// Attacks on sign-in, sessions, tokens and the admin rule, against the production
// server over HTTP. Every refusal is checked three ways: a clear 4xx, no session
// cookie, and nothing changed in the database.

const PASSWORD = "correct horse battery";
const SESSION_COOKIE = "inkwell.session_token";

let mail: MailCapture;

beforeAll(async () => {
  mail = await startMailCapture();
});

afterAll(async () => {
  await mail?.close();
});

// ---------------------------------------------------------------------------
// HTTP helpers

interface Reply {
  status: number;
  headers: Headers;
  location: string | null;
  /** The session cookie this reply sets (name=value), or null when none or cleared. */
  session: string | null;
  /** True when the reply clears the session cookie. */
  clearsSession: boolean;
  text: string;
}

interface RequestOptions {
  /** Sent as X-Forwarded-For: a client address only believed with TRUST_PROXY. */
  ip?: string;
  cookie?: string | null;
  origin?: string;
}

async function reply(res: Response): Promise<Reply> {
  let session: string | null = null;
  let clearsSession = false;
  for (const cookie of res.headers.getSetCookie()) {
    const pair = cookie.split(";")[0] ?? "";
    if (!pair.startsWith(`${SESSION_COOKIE}=`)) continue;
    if (/max-age=0/i.test(cookie) || pair === `${SESSION_COOKIE}=`) clearsSession = true;
    else session = pair;
  }
  return {
    status: res.status,
    headers: res.headers,
    location: res.headers.get("location"),
    session,
    clearsSession,
    text: await res.text(),
  };
}

function headersFor(opts: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = { "accept-language": "en", cookie: "locale=en" };
  if (opts.ip) headers["x-forwarded-for"] = opts.ip;
  if (opts.cookie) headers.cookie = `locale=en; ${opts.cookie}`;
  if (opts.origin) headers.origin = opts.origin;
  return headers;
}

/** A test's view of one running server: its URL, its database and request helpers. */
interface Site {
  server: ServerProcess;
  db: DB;
  /** PUBLIC_URL of the server: better-auth's trusted origin for /api/auth/*. */
  publicOrigin: string;
}

/** A document POST of a form, as a browser without JavaScript sends it. */
async function postForm(site: Site, path: string, fields: Record<string, string>, opts: RequestOptions = {}) {
  const res = await fetch(`${site.server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...headersFor({ origin: site.server.url, ...opts }),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  });
  return reply(res);
}

/** A JSON POST to better-auth's own endpoints, as its browser client sends it. */
async function postJson(site: Site, path: string, body: unknown, opts: RequestOptions = {}) {
  const res = await fetch(`${site.server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headersFor({ origin: site.publicOrigin, ...opts }), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return reply(res);
}

async function get(site: Site, path: string, opts: RequestOptions = {}) {
  const res = await fetch(`${site.server.url}${path}`, { redirect: "manual", headers: headersFor(opts) });
  return reply(res);
}

/** The e-mail of the session's user according to better-auth, or null when anonymous. */
async function sessionEmail(site: Site, cookie: string | null): Promise<string | null> {
  const res = await get(site, "/api/auth/get-session", { cookie });
  expect(res.status).toBe(200);
  const body = JSON.parse(res.text) as { user?: { email?: string } } | null;
  return body?.user?.email ?? null;
}

interface RootUser {
  id: string;
  email: string;
  isAdmin: boolean;
  emailVerified: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The root loader's `user`, read through React Router's single-fetch data request. */
async function rootUser(site: Site, cookie: string | null): Promise<RootUser | null> {
  const res = await fetch(`${site.server.url}/posts.data`, { headers: headersFor({ cookie }) });
  expect(res.status).toBe(200);
  if (!res.body) throw new Error("no body");
  const decoded = await decodeViaTurboStream(res.body, globalThis as unknown as Window & typeof globalThis);
  // Read the stream to its end: a remainder left unread errors when the server stops later.
  await decoded.done;
  const root = isRecord(decoded.value) ? decoded.value.root : undefined;
  const data = isRecord(root) ? root.data : undefined;
  if (!isRecord(data) || !("user" in data)) throw new Error(`no root data in ${JSON.stringify(decoded.value)}`);
  return data.user as RootUser | null;
}

/** The e-mail shown in the navigation bar of a page, or null when signed out. */
function navUser(html: string): string | null {
  // The account menu's summary: the display name sits in a span inside it.
  return /data-testid="nav-user"[^>]*>(?:<span[^>]*>)?([^<]*)</.exec(html)?.[1] ?? null;
}

/** The text of the form's error alert. */
function alertText(html: string): string | null {
  return /role="alert"[^>]*>([^<]*)</.exec(html)?.[1] ?? null;
}

let ipCounter = 0;
/** A fresh client address for X-Forwarded-For (only believed with TRUST_PROXY). */
function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

function uniqueEmail(name: string): string {
  return `${name}-${randomBytes(4).toString("hex")}@example.test`;
}

async function userRow(db: DB, email: string) {
  return db
    .selectFrom("users")
    .select(["id", "email", "emailVerified"])
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
}

async function passwordHash(db: DB, email: string): Promise<string | null> {
  const row = await db
    .selectFrom("accounts")
    .innerJoin("users", "users.id", "accounts.userId")
    .select("accounts.password")
    .where("users.email", "=", email.toLowerCase())
    .where("accounts.providerId", "=", "credential")
    .executeTakeFirst();
  return row?.password ?? null;
}

async function sessionCount(db: DB, email: string): Promise<number> {
  const rows = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.userId")
    .select("sessions.id")
    .where("users.email", "=", email.toLowerCase())
    .execute();
  return rows.length;
}

/** Registers through the form; the account stays unverified. */
async function register(site: Site, email: string, password = PASSWORD, ip = nextIp()): Promise<void> {
  const res = await postForm(site, "/register", { name: "Reader", email, password }, { ip });
  expect(res.status, res.text).toBe(200);
  expect(res.text).toContain(`we sent a link to ${email}`);
}

/** Verifies through the link in the captured mail, as a reader would. */
async function verifyByMail(site: Site, email: string, after = 0): Promise<void> {
  const message = await waitForMail(mail.apiUrl, email, /Verify your e-mail/, { after });
  const token = new URL(linkIn(message, "/verify-email")).searchParams.get("token") ?? "";
  const res = await postForm(site, "/verify-email", { token });
  expect(res.status).toBe(200);
}

/**
 * A verified account, quickly: registered through the form, then marked verified
 * directly in the database (the mail round trip is tested in the token cases).
 */
async function verifiedAccount(site: Site, name: string, password = PASSWORD): Promise<string> {
  const email = uniqueEmail(name);
  await register(site, email, password);
  await site.db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
  return email;
}

async function signIn(site: Site, email: string, password = PASSWORD, opts: RequestOptions = {}): Promise<string> {
  const res = await postForm(site, "/login", { email, password }, { ip: nextIp(), ...opts });
  expect(res.status, res.text).toBe(302);
  expect(res.session).not.toBeNull();
  return res.session ?? "";
}

/** Flips one character in the middle of `s` (every bit of a middle base64url character counts). */
function flipChar(s: string, at = Math.floor(s.length / 2)): string {
  const c = s[at];
  return `${s.slice(0, at)}${c === "A" ? "B" : "A"}${s.slice(at + 1)}`;
}

// ---------------------------------------------------------------------------
// Servers

interface Place {
  dataDir: string;
  databaseUrl: string;
  cleanup(): Promise<void>;
}

/** A data directory and an empty database (SQLite, or PostgreSQL with TEST_DATABASE_URL). */
async function newPlace(): Promise<Place> {
  const dataDir = tempDataDir();
  const database = await createServerDatabaseUrl(dataDir);
  return { dataDir, databaseUrl: database.url, cleanup: () => database.cleanup() };
}

/** Starts the production server on `place`, with a connection of our own to its database. */
async function startSite(env: Record<string, string>, place: Place): Promise<{ site: Site; stop(): Promise<void> }> {
  const server = await startServer({
    DATA_DIR: place.dataDir,
    DATABASE_URL: place.databaseUrl,
    SMTP_URL: mail.smtpUrl,
    LOG_REQUESTS: "false",
    LOG_LEVEL: "error",
    ...env,
  });
  const { db } = openDatabase(parseDatabaseUrl(place.databaseUrl, place.dataDir), { poolMax: 2 });
  return {
    site: { server, db, publicOrigin: `http://localhost:${server.port}` },
    async stop() {
      await server.stop("SIGKILL");
      await db.destroy();
    },
  };
}

/**
 * A site of its own for the enclosing describe block: a new place and server before its
 * tests, both gone after them. `onStart` receives the site each time a server starts;
 * `restart` stops the server and starts another on the same data.
 */
function siteForBlock(env: Record<string, string>, onStart: (site: Site) => void): { restart(): Promise<void> } {
  let place: Place | undefined;
  let handle: Awaited<ReturnType<typeof startSite>> | undefined;
  const start = async (on: Place) => {
    handle = await startSite(env, on);
    onStart(handle.site);
  };
  beforeAll(async () => {
    place = await newPlace();
    await start(place);
  });
  afterAll(async () => {
    await handle?.stop();
    await place?.cleanup();
  });
  return {
    async restart() {
      if (!place) throw new Error("the block's site has not started");
      await handle?.stop();
      await start(place);
    },
  };
}

// ---------------------------------------------------------------------------

describe(`brute force, TRUST_PROXY unset (${testDialect()})`, () => {
  let site: Site;
  siteForBlock({}, (started) => {
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
  siteForBlock({ TRUST_PROXY: "true" }, (started) => {
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

    const notice = await waitForMail(mail.apiUrl, existing, /^You already have/, { after: since });
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
    const message = await waitForMail(mail.apiUrl, email, /^Reset your/, { after: since });
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
    const message = await waitForMail(mail.apiUrl, email, /Verify your e-mail/, { after: since });
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

describe(`admin rule (${testDialect()})`, () => {
  let site: Site;
  const boss = "boss@example.test";
  siteForBlock({ ADMIN_EMAILS: "  Boss@Example.TEST ", TRUST_PROXY: "true" }, (started) => {
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
  const server = siteForBlock({}, (started) => {
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
    const { updateSiteSettings } = await import("../../app/server/repos/site-settings.server.ts");
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
