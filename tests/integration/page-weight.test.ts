import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type ClientManifest, clientManifest } from "../setup/client-manifest.ts";
import { seedDemoSite } from "../setup/demo-site.ts";
import { rawGet } from "../setup/raw-http.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// The weight of a blog page as a phone downloads it (gzip): HTML, CSS and the
// JavaScript it loads at start; everything from this origin, no web fonts; and no
// wallet (/solana) code on blog pages.
//
// An anonymous reader's reading pages carry no React (issue 24, decision 024): the
// document, the stylesheet, the reader script and the icon. Budget: 40 KiB gzip in at
// most 4 requests. A signed-in reader still gets the hydrated app (its own, larger weight).
const BUDGET = 40 * 1024;
const MAX_REQUESTS = 4;
const PASSWORD = "Weight-Reader-2026";

/** The chunks only wallet pages use: the /solana routes' modules and imports that no other route shares. */
function walletChunks(manifest: ClientManifest): Set<string> {
  const wallet = new Set<string>();
  const others = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of Object.values(manifest.routes)) {
    const chunks = [route.module, ...(route.imports ?? []), ...(route.css ?? [])];
    const target = route.id.startsWith("routes/solana") ? wallet : others;
    for (const chunk of chunks) target.add(chunk);
  }
  for (const shared of others) wallet.delete(shared);
  return wallet;
}

describe(`page weight (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let postPath: string;
  let tagPath: string;
  let sessionCookie: string;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    ({ postPath, tagPath } = await seedDemoSite(dataDir, database.url, 4));
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_REQUESTS: "false" });
    sessionCookie = await signIn(dataDir, database.url, "weight-reader@example.test");
  });

  /** A form POST as a browser on the server's origin sends it. */
  function postForm(pathname: string, fields: Record<string, string>): Promise<Response> {
    return fetch(`${server.url}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Registers a reader with a verified address and signs in: the session cookie. */
  async function signIn(dataDir: string, url: string, email: string): Promise<string> {
    await (await postForm("/register", { name: "Weight Reader", email, password: PASSWORD })).arrayBuffer();
    const { db, close } = openDatabase(parseDatabaseUrl(url, dataDir), { poolMax: 1 });
    await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
    await close();
    const login = await postForm("/login", { email, password: PASSWORD });
    await login.arrayBuffer();
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((c) => c.startsWith("inkwell.session_token"));
    if (!cookie) throw new Error(`no session after signing in (${login.status})`);
    return cookie;
  }

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.cleanup();
  });

  /** Every URL the page loads at start: scripts, module preloads, stylesheets, icons. */
  function startupUrls(html: string): string[] {
    const urls = new Set<string>();
    for (const match of html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"[^>]*>/g)) {
      const tag = match[0];
      const url = match[1] ?? "";
      if (tag.startsWith("<link") && !/rel="(?:stylesheet|modulepreload|preload|icon)"/.test(tag)) continue;
      // Images are outside the budget (a cover's preload, for one).
      if (/\bas="image"/.test(tag)) continue;
      urls.add(url);
    }
    for (const match of html.matchAll(/import\("([^"]+)"\)|import "([^"]+)"/g)) urls.add(match[1] ?? match[2] ?? "");
    return [...urls].filter(Boolean);
  }

  it.each([
    ["the home page", () => "/"],
    ["a post page", () => postPath],
    ["a tag page", () => tagPath],
  ])("keeps %s under 40 KiB gzip in 4 requests for an anonymous reader, without React", async (_name, pathOf) => {
    const page = await rawGet(`${server.url}${pathOf()}`, { "accept-encoding": "gzip" });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("gzip");
    const html = (await import("node:zlib")).gunzipSync(page.body).toString();
    const urls = startupUrls(html);
    expect(urls.length).toBeGreaterThan(2);
    // The document, its stylesheet, the reader script and the icon: nothing to hydrate.
    expect(1 + urls.length).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(html).not.toContain("modulepreload");
    expect(html).not.toContain("__reactRouterContext");
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toMatch(/<script src="\/assets\/reader-[\w-]+\.js" defer="" nonce="[^"]+"><\/script>/);
    expect(html).toMatch(/<script type="speculationrules" nonce="[^"]+">/);
    let total = page.body.length;
    for (const url of urls) {
      expect(url, "a third-party request").toMatch(/^\/(?!\/)/);
      const asset = await rawGet(`${server.url}${url}`, { "accept-encoding": "gzip" });
      expect(asset.status, url).toBe(200);
      total += asset.body.length;
      if (url.endsWith(".css")) {
        const css =
          asset.headers["content-encoding"] === "gzip"
            ? (await import("node:zlib")).gunzipSync(asset.body)
            : asset.body;
        expect(css.toString(), "a web font").not.toMatch(/@font-face/);
      }
    }
    expect(html).not.toMatch(/<img[^>]+src="https?:\/\//);
    expect(total).toBeLessThanOrEqual(BUDGET);
  });

  it("keeps the reader script small (at most 6 KiB gzip)", async () => {
    const html = (await rawGet(`${server.url}${postPath}`)).body.toString();
    const src = /<script src="(\/assets\/reader-[\w-]+\.js)"/.exec(html)?.[1];
    expect(src).toBeTruthy();
    const script = await rawGet(`${server.url}${src}`, { "accept-encoding": "gzip" });
    expect(script.status).toBe(200);
    expect(script.headers["content-encoding"]).toBe("gzip");
    expect(script.body.length).toBeLessThanOrEqual(6 * 1024);
  });

  it.each([
    ["the home page", () => "/"],
    ["a post page", () => postPath],
  ])("still hydrates %s for a signed-in reader", async (_name, pathOf) => {
    const page = await rawGet(`${server.url}${pathOf()}`, { cookie: sessionCookie });
    expect(page.status).toBe(200);
    const html = page.body.toString();
    expect(html).toContain('data-testid="nav-user"');
    expect(html).toContain("modulepreload");
    expect(html).toContain("window.__reactRouterContext");
    expect(html).not.toMatch(/\/assets\/reader-[\w-]+\.js/);
    expect(html).not.toContain("speculationrules");
  });

  it("never references a wallet chunk from a blog page", async () => {
    const manifest = clientManifest();
    const wallet = walletChunks(manifest);
    for (const pagePath of ["/", postPath, tagPath, "/posts", "/search?q=a", "/about"]) {
      const html = (await rawGet(`${server.url}${pagePath}`)).body.toString();
      for (const chunk of wallet) expect(html.includes(chunk), `${pagePath} references ${chunk}`).toBe(false);
    }
    // The blog routes' own chunks are not wallet chunks either.
    for (const route of Object.values(manifest.routes)) {
      if (route.id.startsWith("routes/solana")) continue;
      for (const chunk of [route.module, ...(route.imports ?? [])]) expect(wallet.has(chunk), chunk).toBe(false);
    }
  });
});
