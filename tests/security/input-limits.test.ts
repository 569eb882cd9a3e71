import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/server/db/db.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import type { ServerProcess } from "../setup/server-process.ts";
import { type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";
import { signedInAccount } from "../setup/uploads.ts";

// Hardening round 2 (issue 19), finding 3: Markdown nested thousands of levels deep
// overflowed the parser's stack (a 500 and a blocked event loop). Every path that
// takes Markdown from a person refuses it with a 400 and says why, before parsing.

const DEEP = {
  quotes: ">".repeat(4990),
  bullets: "- ".repeat(2495),
  numbers: "1. ".repeat(1663),
};

describe(`input limits (${testDialect()})`, () => {
  let site: Site;
  let server: ServerProcess;
  let db: DB;
  let reader: string;
  let admin: string;
  let postId: string;

  const post = (path: string, fields: Record<string, string>, cookie: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: server.url,
        cookie,
        "accept-language": "en",
      },
      body: new URLSearchParams(fields).toString(),
    });

  beforeAll(async () => {
    site = await startSite({ RENDER_CACHE: "false", RATE_LIMIT_MULTIPLIER: "50" });
    ({ server, db } = site);
    reader = (await signedInAccount(server.url, db, "reader")).cookie;
    admin = (await signedInAccount(server.url, db, "owner", { admin: true })).cookie;
    postId = await createPost(db, {
      slug: "limits",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "Limits", bodyHtml: "<p>Body.</p>" }],
    });
  });

  afterAll(async () => {
    await site?.stop();
  });

  it("refuses a comment nested too deep with a 400 and a field error, and stores nothing", async () => {
    for (const [shape, body] of Object.entries(DEEP)) {
      const res = await post(`/en/posts/detail/${postId}`, { intent: "comment", body }, reader);
      expect(res.status, shape).toBe(400);
      expect(await res.text(), shape).toContain("nested at most 16 levels");
    }
    expect(await db.selectFrom("comments").select("id").where("postId", "=", postId).execute()).toEqual([]);
    // Ordinary nesting is a comment like any other.
    const fine = await post(
      `/en/posts/detail/${postId}`,
      { intent: "comment", body: "> quoted\n>\n> - a point" },
      reader,
    );
    expect(fine.status).toBe(302);
  });

  it("refuses a post body or a preview nested too deep, without a 500", async () => {
    const saved = await post(
      "/en/posts/createPost",
      { key: newId(), enTitle: "Deep", enBody: DEEP.quotes, status: "draft" },
      admin,
    );
    expect(saved.status).toBe(400);
    expect(await saved.text()).toContain("nested at most 16 levels");
    expect(await db.selectFrom("postTranslations").select("postId").where("title", "=", "Deep").execute()).toEqual([]);

    for (const markdown of Object.values(DEEP)) {
      const preview = await fetch(`${server.url}/api/posts/preview`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url, cookie: admin },
        body: JSON.stringify({ markdown }),
      });
      expect(preview.status).toBe(400);
      expect(await preview.json()).toMatchObject({ code: "too-deep" });
    }
  });

  // Finding 4: names were unbounded (a 900 kB name made every post page 2.7 MB) and
  // could hold text-reversing characters.
  it("holds every name to 80 characters without control or direction characters, on the API too", async () => {
    const api = site.authApi;
    const password = "correct horse battery staple";
    for (const [name, code] of [
      ["x".repeat(900_000), "NAME_TOO_LONG"],
      ["x".repeat(81), "NAME_TOO_LONG"],
      ["evil\u202Egpj.exe", "NAME_INVALID"],
      ["two\nlines", "NAME_INVALID"],
      ["   ", "NAME_REQUIRED"],
    ] as const) {
      const email = `n${newId()}@example.test`;
      const res = await api("sign-up/email", { email, password, name });
      expect(res.status, code).toBe(400);
      expect(await res.json(), code).toMatchObject({ code });
      expect(await db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
    }

    for (const [name, code] of [
      ["y".repeat(81), "NAME_TOO_LONG"],
      ["a\u2066b", "NAME_INVALID"],
    ] as const) {
      const res = await api("update-user", { name }, reader);
      expect(res.status, code).toBe(400);
      expect(await res.json(), code).toMatchObject({ code });
    }
    expect((await api("update-user", { name: "  名字 Name  " }, reader)).status).toBe(200);
    const names = await db.selectFrom("users").select("name").where("name", "like", "%Name%").execute();
    expect(names.map((u) => u.name)).toEqual(["名字 Name"]);
  });

  // Finding 5: a `;` is legal in a WHATWG URL host, so a custom RPC of `http://x;sandbox`
  // put `; sandbox` into the /solana pages' CSP.
  it("never lets a custom RPC URL add a directive to the /solana pages' CSP", async () => {
    for (const hostile of ["http://x;sandbox", "http://h;frame-ancestors *", "http://a'b"]) {
      const res = await fetch(`${server.url}/en/solana`, {
        headers: { cookie: `solana_rpc=${encodeURIComponent(hostile)}` },
      });
      expect(res.status).toBe(200);
      const directives = (res.headers.get("content-security-policy") ?? "").split("; ").map((d) => d.split(" ")[0]);
      expect(directives).not.toContain("sandbox");
      expect(directives.filter((d) => d === "frame-ancestors")).toHaveLength(1);
      expect(res.headers.get("content-security-policy")).not.toContain(hostile.slice(7));
    }
  });
});
