import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import { type ContentVersionStore, dbContentVersion } from "../../app/server/cache/content-version.server.ts";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { PUBLISH_LEASE } from "../../app/server/posts/publish-scheduled.server.ts";
import { redisContentVersion } from "../../app/server/shared-state/redis.server.ts";
import { jpeg } from "../fixtures/images.ts";
import { startTestS3, type TestS3 } from "../setup/s3rver.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl } from "../setup/test-db.ts";
import { createTestRedis, type TestRedis, testRedisUrl } from "../setup/test-redis.ts";
import { startProxy, type TestProxy } from "./proxy.ts";

// Two production instances on one PostgreSQL database and one S3-compatible
// store, behind a round-robin proxy: nothing may depend on being the only process.
// With TEST_REDIS_URL (set by .ci/run when Redis answers) they keep sessions, rate
// limits and the content version in Redis, as REDIS_URL does in production.

const PASSWORD = "correct horse battery";
const SESSION_COOKIE = "inkwell.session_token";
const SCHEDULER_MS = 1000;

if (!process.env.TEST_DATABASE_URL) {
  throw new Error(
    "npm run test:cluster needs PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)",
  );
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

describe("two instances behind a proxy", () => {
  let s3: TestS3;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let db: DB;
  let proxy: TestProxy;
  let env: Record<string, string>;
  const instances: Record<string, ServerProcess> = {};
  let adminCookie = "";
  let redis: TestRedis | null = null;
  let contentVersion: ContentVersionStore;

  async function via(
    target: string,
    path: string,
    init: {
      method?: string;
      form?: Record<string, string>;
      cookie?: string;
      ip?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.cookie) headers.cookie = init.cookie;
    if (init.ip) headers["x-test-client-ip"] = init.ip;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers.origin = proxy.url;
    }
    const res = await fetch(`${target}${path}`, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      redirect: "manual",
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  const cookieOf = (reply: Reply): string =>
    reply.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? "";

  async function signIn(email: string, ip: string): Promise<string> {
    const login = await via(proxy.url, "/login", { form: { email, password: PASSWORD }, ip });
    expect(login.status).toBe(302);
    const cookie = cookieOf(login);
    expect(cookie).not.toBe("");
    return cookie;
  }

  async function account(ip: string): Promise<string> {
    const email = `cluster-${randomBytes(4).toString("hex")}@example.test`;
    expect(
      (await via(proxy.url, "/register", { form: { name: "Cluster Reader", email, password: PASSWORD }, ip })).status,
    ).toBe(200);
    await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
    return email;
  }

  async function start(name: string): Promise<ServerProcess> {
    const server = await startServer({ ...env, LOG_LEVEL: "info" });
    instances[name] = server;
    const slot = proxy.backends.find((b) => b.name === name);
    if (slot) slot.url = server.url;
    else proxy.backends.push({ name, url: server.url });
    return server;
  }

  async function waitFor(check: () => Promise<boolean>, ms: number): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > ms) throw new Error(`condition not met within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return Date.now() - started;
  }

  beforeAll(async () => {
    s3 = await startTestS3(["cluster-media"]);
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    proxy = await startProxy([]);
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PUBLIC_URL: proxy.url,
      TRUST_PROXY: "1",
      INSTANCE_COUNT: "2",
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: "cluster-media",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      SCHEDULER_INTERVAL_MS: String(SCHEDULER_MS),
      LOG_REQUESTS: "false",
    };
    const redisUrl = testRedisUrl();
    if (redisUrl) {
      redis = await createTestRedis(redisUrl);
      env.REDIS_URL = redisUrl;
      env.REDIS_PREFIX = redis.prefix;
    }
    // Both at the same moment, on a database no migration has touched.
    await Promise.all([start("a"), start("b")]);
    db = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 }).db;
    contentVersion = redis ? redisContentVersion(redis.client, redis.prefix) : dbContentVersion(db);
    const admin = await account("198.51.100.1");
    await addAdmins(db, [admin], "cli");
    adminCookie = await signIn(admin, "198.51.100.1");
  }, 60_000);

  afterAll(async () => {
    await Promise.all(Object.values(instances).map((s) => s.stop("SIGKILL")));
    await proxy?.close();
    await db?.destroy();
    await database?.cleanup();
    await s3?.stop();
    await redis?.cleanup();
  });

  it("applied the migrations once, though both started together", async () => {
    const applied = Object.values(instances).filter((s) => s.output().includes("applied database migrations"));
    expect(applied).toHaveLength(1);
    const rows = await db
      .selectFrom("kysely_migration" as never)
      .selectAll()
      .execute();
    const { migrations } = await import("../../db/migrations/index.ts");
    expect(rows).toHaveLength(Object.keys(migrations).length);
    for (const server of Object.values(instances)) {
      const ready = await via(server.url, "/readyz");
      expect(JSON.parse(ready.text)).toMatchObject({
        status: "ready",
        db: "ok",
        storage: "ok",
        migrations: "ok",
        ...(redis ? { redis: "ok" } : {}),
      });
    }
  });

  it("keeps a session on both instances, and a sign-out ends it on both", async () => {
    const email = await account("198.51.100.2");
    const cookie = await signIn(email, "198.51.100.2");
    const a = instances.a as ServerProcess;
    const b = instances.b as ServerProcess;
    for (const server of [a, b]) {
      const page = await via(server.url, "/account", { cookie });
      expect(page.status, server.url).toBe(200);
      expect(page.text).toContain(email);
    }
    // With Redis the sessions live there, not in the database.
    const rows = await db.selectFrom("sessions").select("id").execute();
    if (redis) expect(rows).toEqual([]);
    else expect(rows.length).toBeGreaterThan(0);
    const out = await via(a.url, "/logout", { form: {}, cookie, headers: { origin: proxy.url } });
    expect(out.status).toBe(302);
    for (const server of [a, b]) {
      expect((await via(server.url, "/account", { cookie })).status, server.url).toBe(302);
    }
  });

  it("ends a banned user's sessions on both instances at once", async () => {
    const email = await account("198.51.100.3");
    const cookie = await signIn(email, "198.51.100.3");
    const a = instances.a as ServerProcess;
    const b = instances.b as ServerProcess;
    expect((await via(b.url, "/account", { cookie })).status).toBe(200);
    const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    // Through the proxy (the form's Origin must match the host): one instance bans.
    const banned = await via(proxy.url, "/admin/users", { cookie: adminCookie, form: { intent: "ban", id: user.id } });
    expect(banned.status).toBe(302);
    for (const server of [a, b]) {
      expect((await via(server.url, "/account", { cookie })).status, server.url).toBe(302);
    }
  });

  it("counts sign-in attempts of one client across both instances", async () => {
    const statuses: number[] = [];
    const backends = new Set<string>();
    for (let i = 0; i < 11; i++) {
      const reply = await via(proxy.url, "/login", {
        form: { email: "nobody@example.test", password: "wrong password" },
        ip: "203.0.113.9",
      });
      statuses.push(reply.status);
      backends.add(reply.headers.get("x-backend") ?? "");
    }
    expect(backends).toEqual(new Set(["a", "b"]));
    expect(statuses.slice(0, 10).every((s) => s === 400 || s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("shows an admin's edit on the other instance within a second", async () => {
    const author = await db
      .selectFrom("users")
      .innerJoin("admins", "admins.email", "users.email")
      .select("users.id")
      .executeTakeFirstOrThrow();
    const id = await createPost(db, {
      slug: "cluster-edit",
      authorId: author.id,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [
        { locale: "en", title: "Before the edit", bodyMarkdown: "Old words.", bodyHtml: "<p>Old words.</p>" },
      ],
    });
    await contentVersion.bump();
    // Both instances have the page cached.
    for (const server of Object.values(instances)) {
      await waitFor(
        async () => (await via(server.url, `/posts/detail/${id}`)).headers.get("x-render-cache") === "hit",
        5000,
      );
    }
    const { version } = await db.selectFrom("posts").select("version").where("id", "=", id).executeTakeFirstOrThrow();
    const saved = await via(proxy.url, `/posts/edit/${id}`, {
      cookie: adminCookie,
      form: {
        version: String(version),
        enTitle: "After the edit",
        enSummary: "",
        enBody: "New words.",
        slug: "cluster-edit",
        status: "published",
        publishAtLocal: "",
        publishAtTz: "0",
        // A live post's Save keeps the changes pending (decision 013); Update publishes them.
        intent: "update",
      },
    });
    expect(saved.status).toBe(302);
    const writer = saved.headers.get("x-backend");
    const other = Object.entries(instances).find(([name]) => name !== writer)?.[1] as ServerProcess;
    const took = await waitFor(
      async () => (await via(other.url, `/posts/detail/${id}`)).text.includes("After the edit"),
      3000,
    );
    expect(took).toBeLessThanOrEqual(1000);
  });

  it("serves an image uploaded through one instance from the other", async () => {
    const a = instances.a as ServerProcess;
    const b = instances.b as ServerProcess;
    const boundary = "----cluster";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="shared.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      await jpeg(400, 300),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${a.url}/api/uploads`, {
      method: "POST",
      headers: { origin: proxy.url, cookie: adminCookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: new Uint8Array(body),
    });
    const json = (await res.json()) as { media: { url: string; size: number } };
    expect(res.status).toBe(201);
    const served = await fetch(`${b.url}${json.media.url}`);
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBe(json.media.size);
  });

  it("publishes a scheduled post once, and the other instance takes over when the lease holder dies", async () => {
    const due = (ms: number) => new Date(Date.now() + ms).toISOString();
    const scheduled = async (slug: string) =>
      createPost(db, {
        slug,
        authorId: null,
        status: "scheduled",
        publishedAt: due(1500),
        translations: [{ locale: "en", title: slug }],
      });
    const statusOf = async (id: string) =>
      (await db.selectFrom("posts").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

    const first = await scheduled("cluster-scheduled-one");
    await waitFor(async () => (await statusOf(first)) === "published", 10_000);
    // The publisher logs right after its UPDATE; give both a moment to log anything.
    await waitFor(async () => Object.values(instances).some((s) => s.output().includes(first)), 3000);
    await new Promise((r) => setTimeout(r, 2 * SCHEDULER_MS));
    const publishers = Object.entries(instances).filter(([, s]) => s.output().includes(first));
    expect(publishers).toHaveLength(1);

    const lease = await db
      .selectFrom("jobLeases")
      .selectAll()
      .where("name", "=", PUBLISH_LEASE)
      .executeTakeFirstOrThrow();
    const [holderName, holder] =
      Object.entries(instances).find(([, s]) => lease.holder.includes(`:${s.proc.pid}:`)) ?? [];
    expect(holderName).toBeDefined();
    holder?.proc.kill("SIGKILL");
    await holder?.exited;

    const second = await scheduled("cluster-scheduled-two");
    await waitFor(async () => (await statusOf(second)) === "published", 15_000);
    await waitFor(async () => Object.values(instances).some((s) => s.output().includes(second)), 3000);
    const survivor = Object.entries(instances).find(([name]) => name !== holderName)?.[1];
    expect(survivor?.output()).toContain(second);
    if (holderName) await start(holderName);
  });

  it("loses no acknowledged write when an instance is killed during a write loop", async () => {
    const acknowledged: string[] = [];
    let victim: ServerProcess | undefined;
    for (let i = 0; i < 30; i++) {
      if (i === 10) {
        victim = instances.b;
        victim?.proc.kill("SIGKILL");
      }
      const name = `Cluster link ${i}`;
      const reply = await via(proxy.url, "/admin/links/new", {
        cookie: adminCookie,
        form: { name, url: `https://example.com/${i}`, enabled: "on" },
      });
      if (reply.status === 302) acknowledged.push(name);
    }
    await victim?.exited;
    // After the kill, the proxy sends every request to the survivor: nearly all succeed.
    expect(acknowledged.length).toBeGreaterThanOrEqual(28);
    const stored = new Set((await db.selectFrom("links").select("name").execute()).map((r) => r.name));
    for (const name of acknowledged) expect(stored.has(name), name).toBe(true);
  });
});
