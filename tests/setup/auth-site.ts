import { randomBytes } from "node:crypto";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { afterAll, beforeAll, expect } from "vitest";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { linkIn, type MailCapture, startMailCapture, waitForMail } from "./mail-capture.ts";
import { type ServerProcess, startServer, tempDataDir } from "./server-process.ts";
import { createServerDatabaseUrl } from "./test-db.ts";

// The sign-in attacks' view of a production server (tests/security/auth-*.test.ts): each
// describe block starts a site of its own (`siteForBlock`) sending mail to the file's capture
// (`mailCaptureForFile`), and the helpers below speak to it over HTTP as a browser without
// JavaScript, or better-auth's own client, would; the refusals are read from the replies
// (status, session cookie) and from the database.

export const PASSWORD = "correct horse battery";
export const SESSION_COOKIE = "inkwell.session_token";

/**
 * A mail capture for the whole test file: started before its first test, closed after its
 * last. The getter hands it to `siteForBlock`, whose servers start after it.
 */
export function mailCaptureForFile(): () => MailCapture {
  let mail: MailCapture | undefined;
  beforeAll(async () => {
    mail = await startMailCapture();
  });
  afterAll(async () => {
    await mail?.close();
  });
  return () => {
    if (!mail) throw new Error("the file's mail capture has not started");
    return mail;
  };
}

// ---------------------------------------------------------------------------
// HTTP

export interface Reply {
  status: number;
  headers: Headers;
  location: string | null;
  /** The session cookie this reply sets (name=value), or null when none or cleared. */
  session: string | null;
  /** True when the reply clears the session cookie. */
  clearsSession: boolean;
  text: string;
}

export interface RequestOptions {
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
export interface Site {
  server: ServerProcess;
  db: DB;
  /** PUBLIC_URL of the server: better-auth's trusted origin for /api/auth/*. */
  publicOrigin: string;
  /** The mail capture the server sends to (its SMTP_URL). */
  mail: MailCapture;
}

/** A document POST of a form, as a browser without JavaScript sends it. */
export async function postForm(site: Site, path: string, fields: Record<string, string>, opts: RequestOptions = {}) {
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
export async function postJson(site: Site, path: string, body: unknown, opts: RequestOptions = {}) {
  const res = await fetch(`${site.server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headersFor({ origin: site.publicOrigin, ...opts }), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return reply(res);
}

export async function get(site: Site, path: string, opts: RequestOptions = {}) {
  const res = await fetch(`${site.server.url}${path}`, { redirect: "manual", headers: headersFor(opts) });
  return reply(res);
}

/** The e-mail of the session's user according to better-auth, or null when anonymous. */
export async function sessionEmail(site: Site, cookie: string | null): Promise<string | null> {
  const res = await get(site, "/api/auth/get-session", { cookie });
  expect(res.status).toBe(200);
  const body = JSON.parse(res.text) as { user?: { email?: string } } | null;
  return body?.user?.email ?? null;
}

export interface RootUser {
  id: string;
  email: string;
  isAdmin: boolean;
  emailVerified: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The root loader's `user`, read through React Router's single-fetch data request. */
export async function rootUser(site: Site, cookie: string | null): Promise<RootUser | null> {
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

/** The name shown in the navigation bar of a page, or null when signed out. */
export function navUser(html: string): string | null {
  // The account menu's summary: the display name sits in a span inside it.
  return /data-testid="nav-user"[^>]*>(?:<span[^>]*>)?([^<]*)</.exec(html)?.[1] ?? null;
}

/** The text of the form's error alert. */
export function alertText(html: string): string | null {
  return /role="alert"[^>]*>([^<]*)</.exec(html)?.[1] ?? null;
}

let ipCounter = 0;
/** A fresh client address for X-Forwarded-For (only believed with TRUST_PROXY). */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function uniqueEmail(name: string): string {
  return `${name}-${randomBytes(4).toString("hex")}@example.test`;
}

export async function userRow(db: DB, email: string) {
  return db
    .selectFrom("users")
    .select(["id", "email", "emailVerified"])
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
}

export async function passwordHash(db: DB, email: string): Promise<string | null> {
  const row = await db
    .selectFrom("accounts")
    .innerJoin("users", "users.id", "accounts.userId")
    .select("accounts.password")
    .where("users.email", "=", email.toLowerCase())
    .where("accounts.providerId", "=", "credential")
    .executeTakeFirst();
  return row?.password ?? null;
}

export async function sessionCount(db: DB, email: string): Promise<number> {
  const rows = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.userId")
    .select("sessions.id")
    .where("users.email", "=", email.toLowerCase())
    .execute();
  return rows.length;
}

/** Registers through the form; the account stays unverified. */
export async function register(site: Site, email: string, password = PASSWORD, ip = nextIp()): Promise<void> {
  const res = await postForm(site, "/register", { name: "Reader", email, password }, { ip });
  expect(res.status, res.text).toBe(200);
  expect(res.text).toContain(`we sent a link to ${email}`);
}

/** Verifies through the link in the captured mail, as a reader would. */
export async function verifyByMail(site: Site, email: string, after = 0): Promise<void> {
  const message = await waitForMail(site.mail.apiUrl, email, /Verify your e-mail/, { after });
  const token = new URL(linkIn(message, "/verify-email")).searchParams.get("token") ?? "";
  const res = await postForm(site, "/verify-email", { token });
  expect(res.status).toBe(200);
}

/**
 * A verified account, quickly: registered through the form, then marked verified
 * directly in the database (the mail round trip is tested in the token cases).
 */
export async function verifiedAccount(site: Site, name: string, password = PASSWORD): Promise<string> {
  const email = uniqueEmail(name);
  await register(site, email, password);
  await site.db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
  return email;
}

export async function signIn(
  site: Site,
  email: string,
  password = PASSWORD,
  opts: RequestOptions = {},
): Promise<string> {
  const res = await postForm(site, "/login", { email, password }, { ip: nextIp(), ...opts });
  expect(res.status, res.text).toBe(302);
  expect(res.session).not.toBeNull();
  return res.session ?? "";
}

/** Flips one character in the middle of `s` (every bit of a middle base64url character counts). */
export function flipChar(s: string, at = Math.floor(s.length / 2)): string {
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
async function startSite(
  env: Record<string, string>,
  place: Place,
  mail: MailCapture,
): Promise<{ site: Site; stop(): Promise<void> }> {
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
    site: { server, db, publicOrigin: `http://localhost:${server.port}`, mail },
    async stop() {
      await server.stop("SIGKILL");
      await db.destroy();
    },
  };
}

/**
 * A site of its own for the enclosing describe block: a new place and server before its
 * tests, both gone after them, sending mail to `mail()` (the file's capture, started
 * before the block's server). `onStart` receives the site each time a server starts;
 * `restart` stops the server and starts another on the same data.
 */
export function siteForBlock(
  mail: () => MailCapture,
  env: Record<string, string>,
  onStart: (site: Site) => void,
): { restart(): Promise<void> } {
  let place: Place | undefined;
  let handle: Awaited<ReturnType<typeof startSite>> | undefined;
  const start = async (on: Place) => {
    handle = await startSite(env, on, mail());
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
