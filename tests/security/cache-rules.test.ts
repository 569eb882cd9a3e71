import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpContentVersion, CONTENT_VERSION_POLL_MS } from "../../app/server/cache/content-version.server.ts";
import { submitComment } from "../../app/server/comments/comments.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { createAd } from "../../app/server/site/ads.server.ts";
import { createSlide } from "../../app/server/site/carousel.server.ts";
import type { ServerProcess } from "../setup/server-process.ts";
import { cookieOf, type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";

// Hardening round 2 (issue 19), findings 6, 7 and the Host half of 10: what the render
// cache serves must follow time windows and every write, whichever route made it,
// and a malformed Host is the client's error.

const PASSWORD = "correct horse battery staple";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

async function page(url: string): Promise<{ body: string; cache: string | null }> {
  const res = await fetch(url, { headers: { "user-agent": BROWSER, "accept-language": "en" } });
  return { body: await res.text(), cache: res.headers.get("x-render-cache") };
}

/** Reads a page until the cache serves it (the first read renders it, an instance may still be taking in a version). */
async function cached(url: string): Promise<string> {
  const deadline = Date.now() + 8000;
  for (;;) {
    const got = await page(url);
    if (got.cache === "hit") return got.body;
    if (Date.now() > deadline) throw new Error(`${url} never came from the cache`);
    await new Promise((r) => setTimeout(r, CONTENT_VERSION_POLL_MS));
  }
}

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now()) + 50));

describe(`render cache rules (${testDialect()})`, () => {
  let site: Site;
  let server: ServerProcess;
  let db: DB;
  let postId: string;

  beforeAll(async () => {
    site = await startSite({});
    ({ server, db } = site);
    postId = await createPost(db, {
      slug: "windows",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "Time windows", bodyHtml: "<p>Body.</p>" }],
    });
    await bumpContentVersion(db);
  });

  afterAll(async () => {
    await site?.stop();
  });

  it("expires a cached page when a slide's or an ad's time window opens or closes", async () => {
    const opens = Date.now() + 4000;
    const closes = opens + 2000;
    await createSlide(db, {
      titleEn: "Slide from later",
      imageUrl: "/social.jpg",
      startsAt: new Date(opens).toISOString(),
    });
    await createAd(db, {
      placement: "home_top",
      kind: "text",
      titleEn: "Ad until soon",
      linkUrl: "https://example.com/",
      endsAt: new Date(closes).toISOString(),
    });
    await bumpContentVersion(db);
    const before = await cached(`${server.url}/en`);
    expect(before).not.toContain("Slide from later");
    expect(before).toContain("Ad until soon");

    // No write in between: only the clock moves.
    await sleepUntil(opens);
    const opened = await page(`${server.url}/en`);
    expect(opened.body).toContain("Slide from later");
    await sleepUntil(closes);
    const closed = await page(`${server.url}/en`);
    expect(closed.body).not.toContain("Ad until soon");
    expect(closed.body).toContain("Slide from later");
  });

  it("drops cached pages when a name changes or an account goes through /api/auth", async () => {
    const api = site.authApi;
    expect(
      (await api("sign-up/email", { email: "named@example.test", password: PASSWORD, name: "Old Name" })).status,
    ).toBe(200);
    await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", "named@example.test").execute();
    const user = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "named@example.test")
      .executeTakeFirstOrThrow();
    const signIn = await api("sign-in/email", { email: "named@example.test", password: PASSWORD });
    const cookie = cookieOf(signIn);
    const comment = await submitComment(db, { postId, authorId: user.id, body: "A kind word.", moderation: "auto" });
    expect(comment.ok).toBe(true);
    await bumpContentVersion(db);

    const postUrl = `${server.url}/en/posts/detail/${postId}`;
    expect(await cached(postUrl)).toContain("Old Name");
    expect((await api("update-user", { name: "New Name" }, cookie)).status).toBe(200);
    const renamed = await page(postUrl);
    expect(renamed.cache).not.toBe("hit");
    expect(renamed.body).toContain("New Name");
    expect(renamed.body).not.toContain("Old Name");

    expect(await cached(postUrl)).toContain("New Name");
    expect((await api("delete-user", { password: PASSWORD }, cookie)).status).toBe(200);
    const gone = await page(postUrl);
    expect(gone.cache).not.toBe("hit");
    expect(gone.body).not.toContain("New Name");
  });

  it("answers 400, not 500, to a Host header no URL can be made of", async () => {
    const statusWithHost = (path: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${server.url}${path}`, { headers: { host }, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end();
      });
    for (const host of ["a b", "a\tb", "x/y", "[::1", "a:b:c"]) {
      expect(await statusWithHost("/", host), JSON.stringify(host)).toBe(400);
    }
    // A name with a port, an IPv4 and an IPv6 address are all fine.
    for (const host of ["blog.example:8080", "127.0.0.1", "[::1]:3000"]) {
      expect(await statusWithHost("/healthz", host), host).toBe(200);
    }
  });
});
