import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl } from "../setup/test-db.ts";

// Walks the route table: every page under /admin refuses visitors (to the login
// page; 401 for React Router data requests) and signed-in non-admins (403, with
// no admin data in what is sent), for reads and for form posts alike.

const PASSWORD = "correct horse battery";

interface AdminRoute {
  path: string;
  /** React Router's route id: the explicit id, else the file without its extension. */
  id: string;
}

/** Every route under /admin in app/routes.ts, params filled with an id that does not exist. */
function adminRoutes(entries: readonly RouteConfigEntry[], parent = ""): AdminRoute[] {
  const out: AdminRoute[] = [];
  for (const entry of entries) {
    const own = entry.index ? parent : [parent, entry.path ?? ""].filter(Boolean).join("/");
    if (own === "admin" || own.startsWith("admin/")) {
      out.push({
        path: `/${own.replace(/:[A-Za-z]+/g, "no-such-id")}`,
        id: entry.id ?? entry.file.replace(/\.[jt]sx?$/, ""),
      });
    }
    if (entry.children) out.push(...adminRoutes(entry.children, own));
  }
  return out;
}

let server: ServerProcess;
let db: DB;
let cleanup: () => Promise<void>;
let userCookie = "";
let adminCookie = "";
const routeList = adminRoutes(routes);
const paths = [...new Set(routeList.map((r) => r.path))];

/** Registers and signs in through the site's own forms (marked verified in between); returns the session cookie. */
async function signUpAndIn(email: string): Promise<string> {
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", cookie: "locale=en" },
      body: new URLSearchParams(fields).toString(),
    });
  const signUp = await form("/register", { name: "Reader", email, password: PASSWORD });
  await signUp.text();
  expect(signUp.status).toBe(200);
  await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
  const signIn = await form("/login", { email, password: PASSWORD });
  await signIn.text();
  expect(signIn.status).toBe(302);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => c.startsWith("inkwell.session_token="));
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

beforeAll(async () => {
  const dataDir = tempDataDir();
  const database = await createServerDatabaseUrl(dataDir);
  cleanup = database.cleanup;
  server = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_REQUESTS: "false",
    LOG_LEVEL: "error",
  });
  db = openDatabase(parseDatabaseUrl(database.url, dataDir)).db;
  userCookie = await signUpAndIn("reader@example.test");
  await addAdmins(db, ["boss@example.test"], "cli");
  adminCookie = await signUpAndIn("boss@example.test");
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await db?.destroy();
  await cleanup?.();
});

async function get(path: string, cookie?: string): Promise<{ status: number; location: string | null; body: string }> {
  const res = await fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { status: res.status, location: res.headers.get("location"), body: await res.text() };
}

async function post(path: string, cookie?: string): Promise<{ status: number; location: string | null; body: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: "intent=delete&id=no-such-id&imageUrl=%2Fsocial.jpg&nameEn=x&nameZh=x&slug=x",
  });
  return { status: res.status, location: res.headers.get("location"), body: await res.text() };
}

describe("the admin route table", () => {
  it("has the admin pages in it", () => {
    expect(paths).toContain("/admin");
    expect(paths).toContain("/admin/swapers");
    expect(paths.length).toBeGreaterThanOrEqual(8);
  });

  it("sends visitors to the login page, and answers their data requests with 401", async () => {
    for (const path of paths) {
      const page = await get(path);
      expect(page.status, path).toBe(302);
      expect(page.location, path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      const dataRequest = await get(`${path}.data`);
      expect(dataRequest.status, `${path}.data`).toBe(401);
      const action = await post(path);
      // 405: the page has no action at all.
      expect([302, 401, 405], `POST ${path}`).toContain(action.status);
      if (action.status === 302) expect(action.location, `POST ${path}`).toMatch(/^\/login\?redirectTo=/);
    }
  });

  it("refuses signed-in readers with 403 and sends them no admin data", async () => {
    for (const path of paths) {
      const page = await get(path, userCookie);
      expect(page.status, path).toBe(403);
      expect(page.body, path).not.toMatch(/href="\/admin\/|Admin panel|管理面板/);
      const action = await post(path, userCookie);
      expect([403, 405], `POST ${path}`).toContain(action.status);
      expect(action.body, `POST ${path}`).not.toMatch(/href="\/admin\/|Admin panel|管理面板/);
    }
  });

  it("runs no admin loader for a reader even when a data request asks for that route alone", async () => {
    for (const route of routeList) {
      const res = await get(`${route.path}.data?_routes=${encodeURIComponent(route.id)}`, userCookie);
      expect(res.status, `${route.path} ${route.id}`).toBe(403);
    }
  });

  // The browser journeys once checked this page by page (the blog list with a draft's
  // title, a forged trash, the links, ads, slides and settings forms); here every admin
  // page and action is asked about a real post, as an attacker who knows its id would.
  it("shows a reader nothing of a real draft and lets their forged posts change nothing", async () => {
    const secret = "Admin-access secret draft title";
    const id = await createPost(db, {
      slug: "admin-access-secret",
      authorId: null,
      status: "draft",
      publishedAt: null,
      translations: [{ locale: "en", title: secret }],
    });
    const auditBefore = await db
      .selectFrom("auditLog")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    for (const path of [...paths, "/admin/blog?view=trash", "/admin/comments?status=spam"]) {
      const page = await get(path.replace("no-such-id", id), userCookie);
      expect(page.status, path).toBe(403);
      expect(page.body, path).not.toContain(secret);
    }
    for (const path of paths) {
      for (const intent of ["trash", "delete", "publish", "grantAdmin"]) {
        const res = await fetch(`${server.url}${path.replace("no-such-id", id)}`, {
          method: "POST",
          redirect: "manual",
          headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", cookie: userCookie },
          body: new URLSearchParams({
            intent,
            id,
            ids: id,
            bulk: "delete",
            confirmed: "1",
            siteNameEn: "Hijacked",
            siteNameZh: "劫持",
            name: "Sneaky",
            url: "https://sneaky.example",
          }).toString(),
        });
        expect([403, 405], `POST ${path} ${intent}`).toContain(res.status);
        expect(await res.text(), `POST ${path} ${intent}`).not.toContain(secret);
      }
    }
    const row = await db
      .selectFrom("posts")
      .select(["status", "deletedAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "draft", deletedAt: null });
    const auditAfter = await db
      .selectFrom("auditLog")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(auditAfter.n)).toBe(Number(auditBefore.n));
    const settings = await get("/en", userCookie);
    expect(settings.body).not.toContain("Hijacked");
  });

  it("refuses an admin's cross-site form posts before any action runs", async () => {
    const before = await db
      .selectFrom("auditLog")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    for (const path of ["/admin/swapers/new", "/admin/categories/new", "/admin/config"]) {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          origin: "https://evil.example",
          "content-type": "application/x-www-form-urlencoded",
          cookie: adminCookie,
        },
        body: "imageUrl=%2Fsocial.jpg&nameEn=Evil&nameZh=Evil&slug=evil",
      });
      await res.text();
      expect(res.status, path).toBe(403);
    }
    const after = await db
      .selectFrom("auditLog")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("lets admins in (a missing record is 404, never 500)", async () => {
    for (const path of paths) {
      const page = await get(path, adminCookie);
      expect([200, 404], path).toContain(page.status);
      if (!path.includes("no-such-id")) expect(page.status, path).toBe(200);
    }
  });
});
