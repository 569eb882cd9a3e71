import { afterAll, beforeAll, expect } from "vitest";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type MailCapture, startMailCapture } from "./mail-capture.ts";
import { type ServerProcess, startServer, tempDataDir } from "./server-process.ts";
import { createServerDatabaseUrl } from "./test-db.ts";

// The attack catalogue's server (tests/security/attacks.test.ts), the requests its cases
// send, and its tables of payloads.

const PASSWORD = "correct horse battery staple";
export const EVIL = "https://evil.example";

/** The catalogue's production server, its mail, its database, and an admin's session. */
export interface CatalogueSite {
  server: ServerProcess;
  mail: MailCapture;
  db: DB;
  /** A session of owner@example.test, a verified admin, for the admin pages' parameters. */
  adminCookie: string;
}

/** The cookies a reply sets, as a Cookie header. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

export interface CatalogueRequests {
  url(path: string): string;
  /** A form POST from the server's own origin, with more headers when given. */
  form(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** A POST to better-auth's API, from its trusted origin. */
  authApi(path: string, body: string): Promise<Response>;
  signUp(email: string, extra?: Record<string, unknown>): Promise<Response>;
  signIn(email: string): Promise<Response>;
  /** A reader with a verified account: their session cookie. */
  reader(email: string): Promise<string>;
}

/** The requests to `site()`, read when a request is sent (the site starts in a hook). */
export function catalogueRequests(site: () => Pick<CatalogueSite, "server" | "db">): CatalogueRequests {
  const url = (path: string) => `${site().server.url}${path}`;
  // PUBLIC_URL's default: better-auth's trusted origin for /api/auth/*.
  const selfOrigin = () => `http://localhost:${site().server.port}`;
  const authApi = (path: string, body: string) =>
    fetch(url(`/api/auth/${path}`), {
      method: "POST",
      headers: { "content-type": "application/json", origin: selfOrigin() },
      body,
    });
  const signUp = (email: string, extra: Record<string, unknown> = {}) =>
    authApi("sign-up/email", JSON.stringify({ email, password: PASSWORD, name: "Someone", ...extra }));
  const signIn = (email: string) => authApi("sign-in/email", JSON.stringify({ email, password: PASSWORD }));
  return {
    url,
    form: (path, fields, headers = {}) =>
      fetch(url(path), {
        method: "POST",
        redirect: "manual",
        // React Router refuses an action whose Origin differs from the URL it was sent to.
        headers: { "content-type": "application/x-www-form-urlencoded", origin: site().server.url, ...headers },
        body: new URLSearchParams(fields).toString(),
      }),
    authApi,
    signUp,
    signIn,
    async reader(email) {
      expect((await signUp(email)).status).toBe(200);
      await site().db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
      const session = await signIn(email);
      expect(session.status, await session.clone().text()).toBe(200);
      return cookieOf(session);
    },
  };
}

/**
 * Starts the catalogue's server for the enclosing describe block before its tests (with an
 * admin, owner@example.test, signed in) and stops it after them; `onStart` receives it.
 */
export function catalogueSiteForBlock(onStart: (site: CatalogueSite) => void): void {
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>> | undefined;
  let mail: MailCapture | undefined;
  let server: ServerProcess | undefined;
  let closeDb: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    mail = await startMailCapture();
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SMTP_URL: mail.smtpUrl,
      // chief@ is listed but has no account yet: the address an attacker would race for.
      ADMIN_EMAILS: "owner@example.test,chief@example.test",
      RENDER_CACHE: "false",
      // Many accounts sign in from one address here; brute force has its own suite (auth-sign-in.test.ts).
      RATE_LIMIT_MULTIPLIER: "50",
    });
    const opened = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 });
    closeDb = opened.close;
    const site: CatalogueSite = { server, mail, db: opened.db, adminCookie: "" };
    const { signUp, signIn } = catalogueRequests(() => site);
    expect((await signUp("owner@example.test")).status).toBe(200);
    await site.db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", "owner@example.test").execute();
    await addAdmins(site.db, ["owner@example.test"], "cli");
    const session = await signIn("owner@example.test");
    expect(session.status).toBe(200);
    site.adminCookie = cookieOf(session);
    onStart(site);
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await closeDb?.();
    await mail?.close();
    await database?.cleanup();
  });
}

/** What no rendered page may contain, whatever was stored. */
export const ACTIVE_MARKUP =
  /<script(?![^>]*\bnonce=)|<[a-z][^>]*\son[a-z]+\s*=|<[a-z][^>]*\s(?:href|src)\s*=\s*["']?\s*(?:javascript|vbscript|data:text\/html)/i;

/** Markdown (and raw HTML in it) that would run script if rendered as written. */
export const XSS = [
  '<script>alert("md")</script>',
  '<img src=x onerror=alert("md")>',
  '<svg onload=alert("md")>',
  "[click](JaVaScRiPt:alert(1))",
  "[entity](java&#115;cript:alert(1))",
  "[data](data:text/html,<script>alert(1)</script>)",
  '<a href="javascript:alert(1)">raw</a>',
  '<iframe src="https://evil.example"></iframe>',
].join("\n\n");

/** Link and image URLs that would run script: refused wherever an admin enters one. */
export const SCRIPT_URLS = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java&#115;cript:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
];

/** SQL in a search query: searched for as text. */
export const SQL_INJECTIONS = [
  "' OR 1=1 --",
  "'; DROP TABLE posts; --",
  '" OR ""="',
  "1) UNION SELECT password FROM accounts --",
];

/** Admin lists that take ?sort= and ?q= (paths without the leading slash). */
export const SORTED_ADMIN_PAGES = [
  "admin/blog",
  "admin/users",
  "admin/subscribers",
  "admin/newsletter",
  "admin/tags",
  "admin/ads",
  "admin/media",
];

/** A locale cookie or Accept-Language no language matches. */
export const TAMPERED_LOCALE_HEADERS: Array<Record<string, string>> = [
  { cookie: "locale=../../etc/passwd" },
  { cookie: 'locale="><script>alert(1)</script>' },
  { cookie: "locale=zh-Hant-XX-very-long".repeat(20) },
  { "accept-language": "x".repeat(4000) },
  { "accept-language": "zh;q=abc, en;q=-1, *;q=1e9" },
];

/** The site settings form as the admin sends it unchanged (the fields it requires). */
export const SITE_SETTINGS_FORM: Record<string, string> = {
  siteNameEn: "Inkwell",
  siteNameZh: "墨水",
  postsPerPage: "10",
  commentModeration: "auto",
  moderationNotice: "each",
  socialImage: "/social.jpg",
  registrationOpen: "on",
};
