import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { createTestRedis, type TestRedis, testRedisUrl } from "../../../tests/setup/test-redis.ts";
import { nowIso } from "../db/db.server.ts";
import { parseEnv } from "../platform/env.server.ts";
import { newId } from "../platform/ids.server.ts";
import { redisSecondaryStorage } from "../shared-state/redis.server.ts";
import { banUser, getUserForAdmin, unbanUser } from "./admin-users.server.ts";
import { createAuth } from "./auth.server.ts";
import { revokeUserSessions } from "./auth-loader.server.ts";
import { callAuth, messageFor, oauthErrorMessage } from "./guard.server.ts";

// better-auth on a migrated database with our extra user columns: a banned user
// loses every session at once and cannot get a new one. Sessions in the database,
// and in Redis where TEST_REDIS_URL is set (.ci/run).

let database: TestDatabase;
let redis: TestRedis | null = null;
let auth: ReturnType<typeof createAuth>;
let EMAIL = "banned.reader@example.test";
const PASSWORD = "A-long-enough-passphrase-42";

function useAuth(storage: "database" | "redis") {
  const env = parseEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "inkwell-ban-")),
    PUBLIC_URL: "http://blog.example.test",
    LOG_LEVEL: "silent",
  });
  if (storage === "redis" && !redis) throw new Error("redis not connected");
  auth = createAuth({
    db: database.db,
    env,
    mailer: { send: async () => {}, target: "test" },
    log: pino({ level: "silent" }),
    secondaryStorage: storage === "redis" && redis ? redisSecondaryStorage(redis.client, redis.prefix) : null,
  });
  EMAIL = `banned.${storage}@example.test`;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const url = testRedisUrl();
  if (url) redis = await createTestRedis(url);
});
afterAll(async () => {
  await database.cleanup();
  await redis?.cleanup();
});

const storages: Array<"database" | "redis"> = testRedisUrl() ? ["database", "redis"] : ["database"];

const signIn = () =>
  callAuth(() =>
    auth.api.signInEmail({
      body: { email: EMAIL, password: PASSWORD },
      headers: new Headers(),
      asResponse: true,
    }),
  );

const cookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

describe.each(storages)("banned users (sessions in the %s)", (storage) => {
  it("sign up works with the extra columns, and a ban ends sessions and blocks sign-in", async () => {
    useAuth(storage);
    const signUp = await callAuth(() =>
      auth.api.signUpEmail({ body: { email: EMAIL, password: PASSWORD, name: "Reader" }, asResponse: true }),
    );
    expect(signUp.ok).toBe(true);
    const row = await database.db
      .selectFrom("users")
      .select(["id", "banned", "lastSignInAt"])
      .where("email", "=", EMAIL)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ banned: 0, lastSignInAt: null });
    await database.db.updateTable("users").set({ emailVerified: 1 }).where("id", "=", row.id).execute();

    // Two devices.
    const first = await signIn();
    const second = await signIn();
    expect(first.ok && second.ok).toBe(true);
    const firstCookie = cookieOf(first.headers);
    const session = await auth.api.getSession({ headers: new Headers({ cookie: firstCookie }) });
    expect(session?.user.email).toBe(EMAIL);
    expect(Number(session?.user.banned)).toBe(0);
    const lastSignInAt = (
      await database.db.selectFrom("users").select("lastSignInAt").where("id", "=", row.id).executeTakeFirstOrThrow()
    ).lastSignInAt;
    expect(lastSignInAt).not.toBeNull();

    const user = await getUserForAdmin(database.db, row.id);
    if (!user) throw new Error("no user");
    await database.db
      .transaction()
      .execute((trx) => banUser(trx, { id: "some-admin", email: "admin@example.test" }, user));
    // As the admin actions do once the ban has committed (Redis only: the rows went with it).
    await revokeUserSessions(async () => auth, user.id);

    for (const cookie of [firstCookie, cookieOf(second.headers)]) {
      expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    }
    const again = await signIn();
    expect(again.ok).toBe(false);
    expect(again.status).toBe(403);
    expect(again.code).toBe("ACCOUNT_BANNED");
    expect(messageFor(again.code)).toBe("auth:errors.bannedSignIn");
    // An OAuth callback redirects to /login?error=<the same code>.
    expect(oauthErrorMessage("ACCOUNT_BANNED")).toBe("auth:errors.bannedSignIn");
    expect(await database.db.selectFrom("sessions").select("id").where("userId", "=", row.id).execute()).toEqual([]);

    await database.db.transaction().execute((trx) => unbanUser(trx, user));
    expect((await signIn()).ok).toBe(true);
  });
});

describe("banned users (leftover sessions)", () => {
  it("a session left over from before a ban carries the flag (getUser treats it as signed out)", async () => {
    useAuth("database");
    const row = await database.db.selectFrom("users").select("id").where("email", "=", EMAIL).executeTakeFirstOrThrow();
    await database.db.updateTable("users").set({ banned: 1 }).where("id", "=", row.id).execute();
    const token = newId();
    const now = nowIso();
    await database.db
      .insertInto("sessions")
      .values({
        id: newId(),
        token,
        userId: row.id,
        expiresAt: "2099-01-01T00:00:00.000Z",
        ipAddress: null,
        userAgent: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const ctx = await auth.$context;
    const found = await ctx.internalAdapter.findSession(token);
    expect(Number((found?.user as { banned?: unknown } | undefined)?.banned)).toBe(1);
  });
});
