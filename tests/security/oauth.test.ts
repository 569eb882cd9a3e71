import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type MailCapture, startMailCapture } from "../setup/mail-capture.ts";
import { type OidcTestProvider, startOidcProvider } from "../setup/oidc-provider.ts";
import { freePort, type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// OAuth pre-hijack (issue #10's catalogue): someone registers a victim's address
// with their own password, never verifies it, and waits for the victim to sign in
// with a provider. The provider's sign-in must not be attached to that account
// (else the attacker's password would open the victim's account), and must not
// sign anyone in. Runs the whole redirect dance over HTTP against the local
// OpenID Connect provider, so it needs no browser.

const PASSWORD = "correct horse battery staple";

/** Follows redirects by hand with one cookie jar for 127.0.0.1, as a browser would (cookies ignore ports). */
class CookieBrowser {
  private readonly jar = new Map<string, string>();

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  private remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** One request, then every redirect after it; the last response and its URL. */
  async go(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    let current = new URL(url);
    let method = init.method ?? "GET";
    let body: string | undefined = init.form ? new URLSearchParams(init.form).toString() : undefined;
    for (let hop = 0; hop < 20; hop++) {
      const headers: Record<string, string> = {
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "),
        accept: "text/html",
      };
      if (body !== undefined) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        headers.origin = current.origin;
      }
      const res = await fetch(current, { method, headers, body, redirect: "manual" });
      this.remember(res);
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return { res, url: current };
      await res.arrayBuffer();
      current = new URL(location, current);
      method = "GET";
      body = undefined;
    }
    throw new Error(`too many redirects, last at ${current}`);
  }
}

describe(`OAuth pre-hijack (${testDialect()})`, () => {
  let server: ServerProcess;
  let oidc: OidcTestProvider;
  let mail: MailCapture;
  let db: DB;
  let closeDb: () => Promise<void>;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

  beforeAll(async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    oidc = await startOidcProvider({ redirectUris: [`${origin}/api/auth/callback/oidc-test`] });
    mail = await startMailCapture();
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SMTP_URL: mail.smtpUrl,
      RENDER_CACHE: "false",
      OIDC_TEST_DISCOVERY_URL: oidc.discoveryUrl,
      OIDC_TEST_CLIENT_ID: oidc.clientId,
      OIDC_TEST_CLIENT_SECRET: oidc.clientSecret,
    });
    const opened = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 });
    db = opened.db;
    closeDb = opened.close;
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await closeDb?.();
    await oidc?.close();
    await mail?.close();
    await database?.cleanup();
  });

  /** Signs in at the provider as `email` (asserted verified) and comes back: where the browser lands. */
  async function providerSignIn(browser: CookieBrowser, email: string) {
    const atProvider = await browser.go(`${server.url}/login/provider/oidc-test`);
    expect(atProvider.url.origin).toBe(oidc.issuer);
    const page = await atProvider.res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]?.replaceAll("&amp;", "&");
    expect(action, "the provider's sign-in form").toBeTruthy();
    const back = await browser.go(new URL(action ?? "", atProvider.url).toString(), {
      method: "POST",
      form: { email, email_verified: "on" },
    });
    await back.res.arrayBuffer();
    return back.url;
  }

  const sessionOf = async (browser: CookieBrowser) => {
    const token = browser.cookie("inkwell.session_token");
    if (!token) return null;
    const res = await fetch(`${server.url}/api/auth/get-session`, {
      headers: { cookie: `inkwell.session_token=${token}` },
    });
    return (await res.json()) as { user: { email: string } } | null;
  };

  const userRow = (email: string) =>
    db.selectFrom("users").select(["id", "emailVerified"]).where("email", "=", email).executeTakeFirst();
  const providersOf = async (userId: string) =>
    (await db.selectFrom("accounts").select("providerId").where("userId", "=", userId).execute())
      .map((a) => a.providerId)
      .sort();

  it("signs a new address in through the provider (control: the flow itself works)", async () => {
    const browser = new CookieBrowser();
    const landed = await providerSignIn(browser, "fresh.oauth@example.test");
    expect(landed.pathname).toBe("/");
    expect((await sessionOf(browser))?.user.email).toBe("fresh.oauth@example.test");
    const user = await userRow("fresh.oauth@example.test");
    expect(Number(user?.emailVerified)).toBe(1);
    expect(await providersOf(user?.id ?? "")).toEqual(["oidc-test"]);
  });

  it("does not attach the provider to an unverified account someone else registered with the address", async () => {
    const victim = "victim.oauth@example.test";
    // The attacker registers the victim's address with a password they know.
    const attacker = await fetch(`${server.url}/register`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Not the victim", email: victim, password: PASSWORD }).toString(),
    });
    expect(attacker.status).toBe(200);
    await attacker.arrayBuffer();
    const planted = await userRow(victim);
    expect(Number(planted?.emailVerified)).toBe(0);

    // The victim signs in with the provider, which vouches for the address.
    const browser = new CookieBrowser();
    const landed = await providerSignIn(browser, victim);
    expect(landed.pathname).toBe("/login");
    expect(landed.searchParams.get("error")).toBe("account_not_linked");
    expect(await sessionOf(browser)).toBeNull();

    // Nothing changed on the planted account: unverified, password only, no session.
    const after = await userRow(victim);
    expect(after).toEqual(planted);
    expect(await providersOf(planted?.id ?? "")).toEqual(["credential"]);
    expect(
      await db
        .selectFrom("sessions")
        .select("id")
        .where("userId", "=", planted?.id ?? "")
        .execute(),
    ).toEqual([]);
    // And the attacker's password still opens nothing.
    const attempt = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: victim, password: PASSWORD }),
    });
    expect(attempt.status).toBe(403);
    expect(attempt.headers.getSetCookie().join(";")).not.toContain("session_token=");
  });
});
