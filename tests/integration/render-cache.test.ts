import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import {
  bumpContentVersion,
  CONTENT_VERSION_POLL_MS,
  readContentVersion,
} from "../../app/server/cache/content-version.server.ts";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// The render cache across two instances on one database: anonymous pages are
// shared and validated with ETags, signed-in pages never are, a content change on
// one instance empties the other's cache (a comment: only its post's pages), and
// cached reads still count views.

const PASSWORD = "correct horse battery";
const SESSION_COOKIE = "inkwell.session_token";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

interface Page {
  status: number;
  headers: Headers;
  body: string;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(url, { headers: { "user-agent": BROWSER, ...headers }, redirect: "manual" });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** The nonce the CSP header allows, and every nonce attribute in the body. */
function nonces(page: Page): { header: string; body: string[] } {
  const header = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1] ?? "";
  const body = [...page.body.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1] ?? "");
  return { header, body };
}

const isHit = async (url: string, headers: Record<string, string>) =>
  (await get(url, headers)).headers.get("x-render-cache") === "hit";

/**
 * Requests a page until it comes from the cache and still does after more than
 * two polling intervals: an instance may not have taken in the latest version yet,
 * and taking it in empties its cache.
 */
async function warm(url: string, headers: Record<string, string> = {}): Promise<void> {
  await waitFor(async () => {
    if (!(await isHit(url, headers))) return false;
    await new Promise((r) => setTimeout(r, 2.5 * CONTENT_VERSION_POLL_MS));
    return isHit(url, headers);
  }, 8000);
}

async function waitFor(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A form POST to `base`, as a browser on that origin sends it. */
function postForm(base: string, path: string, fields: Record<string, string>, cookie = ""): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: base,
      "content-type": "application/x-www-form-urlencoded",
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Registers `email` on `base` with a verified address and signs in: the session cookie. */
async function signIn(db: DB, base: string, email: string): Promise<string> {
  await (await postForm(base, "/register", { name: "Cache Reader", email, password: PASSWORD })).arrayBuffer();
  await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
  const login = await postForm(base, "/login", { email, password: PASSWORD });
  await login.arrayBuffer();
  const cookie =
    login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((c) => c.startsWith(SESSION_COOKIE)) ?? "";
  expect(cookie).not.toBe("");
  return cookie;
}

describe(`render cache (${testDialect()})`, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let off: ServerProcess;
  let db: DB;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let postId: string;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_REQUESTS: "false", LOG_LEVEL: "error" };
    a = await startServer(env);
    [b, off] = await Promise.all([startServer(env), startServer({ ...env, RENDER_CACHE: "false" })]);
    db = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 }).db;
    postId = await createPost(db, {
      slug: "cached",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "Cached words", bodyHtml: "<p>First version.</p>" }],
    });
    await bumpContentVersion(db);
  });

  afterAll(async () => {
    await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL"), off?.stop("SIGKILL")]);
    await db?.destroy();
    await database?.cleanup();
  });

  it("renders an anonymous page once and serves it again with a fresh nonce that the CSP allows", async () => {
    const url = `${a.url}/posts/detail/${postId}`;
    await warm(url);
    const hit = await get(url);
    const again = await get(url);
    expect(hit.headers.get("x-render-cache")).toBe("hit");
    expect(hit.body).toContain("First version.");
    const first = nonces(hit);
    const second = nonces(again);
    expect(first.body.length).toBeGreaterThan(0);
    expect(new Set(first.body)).toEqual(new Set([first.header]));
    expect(new Set(second.body)).toEqual(new Set([second.header]));
    expect(second.header).not.toBe(first.header);
    expect(again.body.replaceAll(second.header, "N")).toBe(hit.body.replaceAll(first.header, "N"));
    expect(hit.headers.get("cache-control")).toContain("s-maxage=");
    expect(hit.headers.get("vary")).toContain("Cookie");
  });

  it("renders a page once for many readers asking for it at the same time", async () => {
    // The instance must have taken in the latest version: taking it in empties its cache.
    await warm(`${a.url}/`);
    const url = `${a.url}/?readers=${randomBytes(6).toString("hex")}`;
    const pages = await Promise.all(Array.from({ length: 16 }, () => get(url)));
    const states = pages.map((p) => p.headers.get("x-render-cache"));
    expect(states.filter((state) => state === "miss")).toHaveLength(1);
    expect(states.filter((state) => state === "hit")).toHaveLength(15);
    const bodies = new Set(pages.map((p) => p.body.replaceAll(nonces(p).header, "N")));
    expect(pages.every((p) => p.status === 200)).toBe(true);
    expect(bodies.size).toBe(1);
  });

  it("never keeps the empty body of a HEAD request", async () => {
    const url = `${a.url}/links`;
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    await warm(url);
    const page = await get(url);
    expect(page.headers.get("x-render-cache")).toBe("hit");
    expect(page.body).toContain("<!DOCTYPE html>");
  });

  it("answers 304 to a matching If-None-Match, without a CSP header", async () => {
    const url = `${a.url}/`;
    const first = await get(url);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await get(url, { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe("");
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
    // A server with the cache off still validates.
    const plain = await get(`${off.url}/`);
    expect(plain.headers.get("x-render-cache")).toBe("off");
    expect((await get(`${off.url}/`, { "if-none-match": plain.headers.get("etag") ?? "" })).status).toBe(304);
  });

  it("keeps data requests and languages apart", async () => {
    const data = `${a.url}/posts/detail/${postId}.data`;
    await warm(data);
    const hit = await get(data);
    expect(hit.headers.get("x-render-cache")).toBe("hit");
    expect(hit.body).not.toContain("<html");
    const zh = await get(`${a.url}/zh/posts/detail/${postId}`);
    expect(zh.body).toContain('lang="zh');
  });

  it("never shares a signed-in reader's page", async () => {
    const email = `cache-${randomBytes(4).toString("hex")}@example.test`;
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${a.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: a.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    await (await form("/register", { name: "Cache Reader", email, password: PASSWORD })).arrayBuffer();
    await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
    const login = await form("/login", { email, password: PASSWORD });
    await login.arrayBuffer();
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((c) => c.startsWith(SESSION_COOKIE));
    expect(cookie).toBeTruthy();
    // The anonymous copy (a lean document, decision 024) is in the cache first.
    await warm(`${a.url}/posts/detail/${postId}`);
    for (let i = 0; i < 2; i++) {
      const page = await get(`${a.url}/posts/detail/${postId}`, { cookie: cookie ?? "" });
      expect(page.status).toBe(200);
      expect(page.body).toContain(email);
      expect(page.headers.get("x-render-cache")).toBeNull();
      expect(page.headers.get("cache-control")).toBe("private, no-cache");
      // The signed-in reader gets the app, never the cached lean document.
      expect(page.body).toContain("window.__reactRouterContext");
      expect(page.body).not.toMatch(/\/assets\/reader-[\w-]+\.js/);
    }
    const anonymous = await get(`${a.url}/posts/detail/${postId}`);
    expect(anonymous.headers.get("x-render-cache")).toBe("hit");
    expect(anonymous.body).not.toContain(email);
    expect(anonymous.body).not.toContain("__reactRouterContext");
    expect(anonymous.body).toMatch(/\/assets\/reader-[\w-]+\.js/);
  });

  it("drops every instance's pages when content changes anywhere", async () => {
    const url = `${b.url}/posts/detail/${postId}`;
    await warm(url);
    await db
      .updateTable("postTranslations")
      .set({ bodyHtml: "<p>Second version.</p>" })
      .where("postId", "=", postId)
      .execute();
    // Without a bump the copy stays (views and direct edits do not invalidate).
    expect((await get(url)).body).toContain("First version.");
    const before = await readContentVersion(db);
    await bumpContentVersion(db);
    expect(await readContentVersion(db)).toBe(before + 1);
    await waitFor(async () => (await get(url)).body.includes("Second version."));
  });

  it("a comment drops its post's pages on every instance and no other page; sign-ups drop nothing", async () => {
    const before = await readContentVersion(db);
    const email = `bump-${randomBytes(4).toString("hex")}@example.test`;
    const cookie = await signIn(db, a.url, email);
    expect(await readContentVersion(db)).toBe(before);
    const post = (path: string, fields: Record<string, string>, session = "") => postForm(a.url, path, fields, session);

    const url = `${a.url}/posts/detail/${postId}`;
    const otherId = await createPost(db, {
      slug: `other-${randomBytes(4).toString("hex")}`,
      authorId: null,
      status: "published",
      publishedAt: "2026-10-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "Another post", bodyHtml: "<p>Untouched.</p>" }],
    });
    const untouched = [`/posts/detail/${otherId}`, "/", "/posts"];
    for (const server of [a, b])
      for (const path of [...untouched, `/posts/detail/${postId}`]) await warm(server.url + path);
    // A write without a session (here: refused, sent to sign in) never invalidates.
    const anonymous = await post(`/posts/detail/${postId}`, { intent: "comment", body: "Nobody" });
    await anonymous.arrayBuffer();
    expect(await readContentVersion(db)).toBe(before);
    const comment = await post(`/posts/detail/${postId}`, { intent: "comment", body: "A fresh comment" }, cookie);
    await comment.arrayBuffer();
    expect(comment.status).toBe(302);
    expect(comment.headers.get("location")).toContain("#comment-");
    expect(await readContentVersion(db)).toBe(before + 1);
    // The writer's own instance drops its pages before it answers.
    const next = await get(url);
    expect(next.headers.get("x-render-cache")).toBe("miss");
    expect(next.body).toContain("A fresh comment");
    // The other instance drops that post's page within a poll.
    await waitFor(async () => (await get(`${b.url}/posts/detail/${postId}`)).body.includes("A fresh comment"));
    // A comment touches its post's pages only: the rest of both caches stays.
    await new Promise((r) => setTimeout(r, 2.5 * CONTENT_VERSION_POLL_MS));
    for (const server of [a, b]) {
      for (const path of untouched) expect(await isHit(server.url + path, {}), `${server.url}${path}`).toBe(true);
    }
  });

  it("an admin saving a draft keeps the cache; publishing drops it", async () => {
    const email = `editor-${randomBytes(4).toString("hex")}@example.test`;
    await addAdmins(db, [email], "cli");
    const cookie = await signIn(db, a.url, email);
    const home = `${a.url}/`;
    await warm(home);
    const key = newId();
    const fields = { key, status: "draft", enTitle: "Quietly drafted", enBody: "Not yet." };
    const draft = await postForm(a.url, "/posts/createPost", fields, cookie);
    await draft.arrayBuffer();
    expect(draft.status).toBe(302);
    expect(draft.headers.get("location")).toBe(`/posts/edit/${key}`);
    const before = await readContentVersion(db);
    const edit = await postForm(
      a.url,
      `/posts/edit/${key}`,
      { ...fields, version: "1", enBody: "Still not yet." },
      cookie,
    );
    await edit.arrayBuffer();
    expect(edit.status).toBe(302);
    expect(await readContentVersion(db)).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 2.5 * CONTENT_VERSION_POLL_MS));
    expect(await isHit(home, {})).toBe(true);
    const published = await postForm(
      a.url,
      `/posts/edit/${key}`,
      { ...fields, version: "2", status: "published" },
      cookie,
    );
    await published.arrayBuffer();
    expect(published.status).toBe(302);
    const next = await get(home);
    expect(next.headers.get("x-render-cache")).toBe("miss");
    expect(next.body).toContain("Quietly drafted");
  });

  it("an edit of a live post in place drops the pages showing it, on both instances, and no other", async () => {
    const email = `reviser-${randomBytes(4).toString("hex")}@example.test`;
    await addAdmins(db, [email], "cli");
    const cookie = await signIn(db, a.url, email);
    const key = newId();
    const fields = { key, status: "published", enTitle: "Freshly published", enBody: "The first words." };
    const created = await postForm(a.url, "/posts/createPost", fields, cookie);
    await created.arrayBuffer();
    expect(created.status).toBe(302);
    // A post long before every other: no page that shows the new post shows this one.
    const oldId = await createPost(db, {
      slug: `long-ago-${randomBytes(4).toString("hex")}`,
      authorId: null,
      status: "published",
      publishedAt: "2019-01-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "Long ago", bodyHtml: "<p>Old words.</p>" }],
    });
    await bumpContentVersion(db);
    const showing = ["/", `/posts/detail/${key}`, "/en/rss.xml", "/en/feed.json", "/search?q=words"];
    const elsewhere = [`/posts/detail/${oldId}`];
    for (const server of [a, b]) for (const path of [...showing, ...elsewhere]) await warm(server.url + path);

    const { publishedAt } = await db
      .selectFrom("posts")
      .select("publishedAt")
      .where("id", "=", key)
      .executeTakeFirstOrThrow();
    // The form shows the stored time to the minute, in UTC before the browser converts it.
    const publishAtLocal = (publishedAt ?? "").slice(0, 16);
    const edit = await postForm(
      a.url,
      `/posts/edit/${key}`,
      // A live post's edits reach readers on Update (Save alone keeps them pending).
      { ...fields, version: "1", enTitle: "Freshly revised", publishAtLocal, publishAtTz: "0", intent: "update" },
      cookie,
    );
    await edit.arrayBuffer();
    expect(edit.status).toBe(302);
    expect(
      (await db.selectFrom("posts").select("publishedAt").where("id", "=", key).executeTakeFirstOrThrow()).publishedAt,
    ).toBe(publishedAt);
    for (const path of showing) {
      await waitFor(async () => (await get(`${b.url}${path}`)).body.includes("Freshly revised"));
      const page = await get(`${a.url}${path}`);
      expect(page.body, path).toContain("Freshly revised");
    }
    await new Promise((r) => setTimeout(r, 2.5 * CONTENT_VERSION_POLL_MS));
    for (const server of [a, b]) {
      for (const path of elsewhere) expect(await isHit(server.url + path, {}), `${server.url}${path}`).toBe(true);
    }
  });

  it("counts a view for every reader of a cached post page", async () => {
    const counted = await createPost(db, {
      slug: "counted-cached",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-02T00:00:00.000Z",
      translations: [{ locale: "en", title: "Counted" }],
    });
    const url = `${b.url}/posts/detail/${counted}`;
    // One reader until the page is cached (counted once: one visitor a day), then two more.
    await warm(url, { "user-agent": `${BROWSER} reader-0` });
    for (const reader of ["reader-1", "reader-2"]) {
      const page = await get(url, { "user-agent": `${BROWSER} ${reader}` });
      expect(page.headers.get("x-render-cache")).toBe("hit");
    }
    expect((await b.stop("SIGTERM")).code).toBe(0);
    const row = await db.selectFrom("posts").select("viewCount").where("id", "=", counted).executeTakeFirstOrThrow();
    expect(Number(row.viewCount)).toBe(3);
  });
});
