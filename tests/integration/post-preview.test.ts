import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// POST /api/posts/preview against the production server: only a signed-in admin,
// posting from the site itself, gets rendered HTML back.

const PASSWORD = "correct horse battery";
const SESSION_COOKIE = "inkwell.session_token";

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

describe(`POST /api/posts/preview (${testDialect()})`, () => {
  let server: ServerProcess;
  let db: DB;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let adminCookie: string;
  let adminId: string;
  let userCookie: string;

  /** Every response body is read to its end: an unread stream errors when the server stops. */
  async function preview(
    body: unknown,
    opts: { cookie?: string; origin?: string | null; contentType?: string; method?: string } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { "content-type": opts.contentType ?? "application/json" };
    if (opts.origin !== null) headers.origin = opts.origin ?? server.url;
    if (opts.cookie) headers.cookie = opts.cookie;
    const res = await fetch(`${server.url}/api/posts/preview`, {
      method: opts.method ?? "POST",
      redirect: "manual",
      headers,
      body: opts.method === "GET" ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { raw: text };
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  async function postForm(path: string, fields: Record<string, string>, cookie = ""): Promise<Response> {
    const res = await fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
        "accept-language": "en",
        cookie: `locale=en${cookie ? `; ${cookie}` : ""}`,
      },
      body: new URLSearchParams(fields).toString(),
    });
    await res.arrayBuffer();
    return res;
  }

  /** Registers through the form, marks the e-mail verified, signs in; returns the session cookie. */
  async function verifiedSession(name: string): Promise<{ email: string; cookie: string; id: string }> {
    const email = `${name}-${randomBytes(4).toString("hex")}@example.test`;
    const registered = await postForm("/register", { name, email, password: PASSWORD });
    expect(registered.status).toBe(200);
    await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
    const signedIn = await postForm("/login", { email, password: PASSWORD });
    expect(signedIn.status).toBe(302);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
    if (!cookie) throw new Error("no session cookie");
    const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    return { email, cookie, id: row.id };
  }

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      LOG_LEVEL: "error",
    });
    db = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 }).db;
    const admin = await verifiedSession("preview-admin");
    await addAdmins(db, [admin.email], "cli");
    adminCookie = admin.cookie;
    adminId = admin.id;
    userCookie = (await verifiedSession("preview-reader")).cookie;
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.destroy();
    await database?.cleanup();
  });

  const markdown = "## 快速开始\n\nHello **world**.\n\n```ts\nconst x = 1;\n```\n\n<script>alert(1)</script>\n";

  it("refuses an anonymous visitor with 401", async () => {
    const res = await preview({ markdown });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "unauthenticated" });
    expect(res.body.html).toBeUndefined();
  });

  it("refuses a signed-in reader who is not an admin with 403", async () => {
    const res = await preview({ markdown }, { cookie: userCookie });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "forbidden" });
    expect(res.body.html).toBeUndefined();
  });

  it("refuses an admin's cookie sent from another site, or without Origin", async () => {
    for (const origin of ["https://evil.example", "null", null]) {
      const res = await preview({ markdown }, { cookie: adminCookie, origin });
      expect(res.status, String(origin)).toBe(403);
      expect(res.body).toMatchObject({ code: "cross-origin" });
    }
  });

  it("renders for an admin with the same pipeline as saving", async () => {
    const res = await preview({ markdown }, { cookie: adminCookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { html, toc, readingMinutes } = res.body as { html: string; toc: unknown; readingMinutes: number };
    expect(html).toContain('<h2 id="h-快速开始">快速开始</h2>');
    expect(html).toContain("<strong>world</strong>");
    expect(html).toMatch(/<pre class="shiki[^"]*" style="--shiki-light:/);
    expect(html).not.toContain("<script");
    expect(toc).toEqual([{ depth: 2, id: "h-快速开始", text: "快速开始" }]);
    expect(readingMinutes).toBe(1);
  });

  it("labels footnotes in the requested language", async () => {
    const res = await preview({ markdown: "a[^1]\n\n[^1]: b", locale: "zh" }, { cookie: adminCookie });
    expect(res.status).toBe(200);
    expect(String(res.body.html)).toContain(">脚注</h2>");
  });

  it("accepts 200 000 characters and refuses one more with 413", async () => {
    const ok = await preview({ markdown: "x".repeat(200_000) }, { cookie: adminCookie });
    expect(ok.status).toBe(200);
    const tooLong = await preview({ markdown: "x".repeat(200_001) }, { cookie: adminCookie });
    expect(tooLong.status).toBe(413);
    expect(tooLong.body).toMatchObject({ code: "too-long" });
    expect(String(tooLong.body.error)).toContain("200000");
  });

  it("answers bad bodies with a clear 4xx", async () => {
    const cases: Array<[unknown, { contentType?: string }, number, string]> = [
      ["{not json", {}, 400, "invalid-json"],
      [{}, {}, 400, "invalid-body"],
      [{ markdown: 42 }, {}, 400, "invalid-body"],
      [[], {}, 400, "invalid-body"],
      ["null", {}, 400, "invalid-body"],
      [{ markdown: "x", locale: "fr" }, {}, 400, "invalid-locale"],
      [{ markdown: "x" }, { contentType: "text/plain" }, 415, "unsupported-media-type"],
      [{ markdown: "x" }, { contentType: "application/x-www-form-urlencoded" }, 415, "unsupported-media-type"],
    ];
    for (const [body, opts, status, code] of cases) {
      const res = await preview(body, { cookie: adminCookie, ...opts });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({ code });
      expect(typeof res.body.error).toBe("string");
    }
  });

  it("answers GET with 405", async () => {
    const res = await preview(null, { cookie: adminCookie, method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("limits previews per admin with 429 and Retry-After", async () => {
    const now = Date.now();
    const key = `preview:user:${adminId}`;
    await db.deleteFrom("rateLimits").where("key", "=", key).execute();
    await db
      .insertInto("rateLimits")
      .values({ key, count: 120, windowStart: now, expiresAt: now + 60_000 })
      .execute();
    try {
      const res = await preview({ markdown: "hi" }, { cookie: adminCookie });
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: "too-many-requests" });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await db.deleteFrom("rateLimits").where("key", "=", key).execute();
    }
    expect((await preview({ markdown: "hi" }, { cookie: adminCookie })).status).toBe(200);
  });
});
