import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl } from "../setup/test-db.ts";

// A server whose policy wants an upper-case letter and a digit: the rule must hold
// on our forms and on better-auth's own endpoints.
let server: ServerProcess;
let dataDir: string;
let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

beforeAll(async () => {
  dataDir = tempDataDir();
  database = await createServerDatabaseUrl(dataDir);
  server = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    PASSWORD_MIN_LENGTH: "10",
    PASSWORD_REQUIRE: "upper,digit",
    PUBLIC_URL: "http://localhost:1",
  });
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await database?.cleanup();
});

async function userExists(email: string): Promise<boolean> {
  const db = openDatabase(parseDatabaseUrl(database.url, dataDir)).db;
  try {
    return (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()) !== undefined;
  } finally {
    await db.destroy();
  }
}

describe("the password policy", () => {
  it("is published at /api/auth/password-policy", async () => {
    const res = await fetch(`${server.url}/api/auth/password-policy`);
    expect(await res.json()).toEqual({ minLength: 10, maxLength: 128, requiredClasses: ["upper", "digit"] });
  });

  it("holds on better-auth's own sign-up endpoint", async () => {
    const post = (password: string, email: string) =>
      fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:1" },
        body: JSON.stringify({ email, password, name: "x" }),
      });
    const weak = await post("no-capitals-or-digits", "weak@example.test");
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as { code: string }).code).toBe("PASSWORD_DOES_NOT_MEET_REQUIREMENTS");
    expect(await userExists("weak@example.test")).toBe(false);

    const strong = await post("Has Capitals 123", "strong@example.test");
    expect(strong.status).toBe(200);
    expect(await userExists("strong@example.test")).toBe(true);
  });

  it("holds on the register form, with a field error and no account", async () => {
    const res = await fetch(`${server.url}/register`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie: "locale=en" },
      body: new URLSearchParams({ name: "Form", email: "form@example.test", password: "lowercase only here" }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The password needs an upper-case letter.");
    expect(await userExists("form@example.test")).toBe(false);
  });
});

describe("the site settings' override (another process writes it: no restart, no cache)", () => {
  async function withDb<T>(fn: (db: ReturnType<typeof openDatabase>["db"]) => Promise<T>): Promise<T> {
    const db = openDatabase(parseDatabaseUrl(database.url, dataDir)).db;
    try {
      return await fn(db);
    } finally {
      await db.destroy();
    }
  }
  const signUp = (password: string, email: string) =>
    fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:1" },
      body: JSON.stringify({ email, password, name: "x" }),
    });

  it("replaces the environment's policy at once, and closes registration at once", async () => {
    const { updateSiteSettings } = await import("../../app/server/site/site-settings.server.ts");
    try {
      await withDb((db) => updateSiteSettings(db, { passwordPolicy: { minLength: 6, requiredClasses: ["symbol"] } }));
      const res = await fetch(`${server.url}/api/auth/password-policy`);
      expect(await res.json()).toEqual({ minLength: 6, maxLength: 128, requiredClasses: ["symbol"] });
      expect((await signUp("short!", "override@example.test")).status).toBe(200);
      const refused = await signUp("Capital123", "override-weak@example.test");
      expect(((await refused.json()) as { code: string }).code).toBe("PASSWORD_DOES_NOT_MEET_REQUIREMENTS");

      await withDb((db) => updateSiteSettings(db, { registrationOpen: false }));
      const closed = await signUp("short!", "closed@example.test");
      expect(closed.status).toBe(403);
      expect(((await closed.json()) as { code: string }).code).toBe("REGISTRATION_CLOSED");
      expect(await userExists("closed@example.test")).toBe(false);
    } finally {
      await withDb((db) => updateSiteSettings(db, { passwordPolicy: null, registrationOpen: true }));
    }
    const res = await fetch(`${server.url}/api/auth/password-policy`);
    expect(await res.json()).toEqual({ minLength: 10, maxLength: 128, requiredClasses: ["upper", "digit"] });
  });
});
