import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { submitComment } from "../comments/comments.server.ts";
import { nowIso } from "../db/db.server.ts";
import { newId } from "../platform/ids.server.ts";
import { createPost } from "../posts/posts.server.ts";
import {
  banUser,
  countActiveAdmins,
  deleteUserAccount,
  getUserForAdmin,
  grantAdmin,
  isUserBanned,
  listUsersForAdmin,
  recordSignIn,
  revokeAdmin,
  unbanUser,
} from "./admin-users.server.ts";
import { addAdmins } from "./admins.server.ts";

let database: TestDatabase;
let n = 0;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  const db = database.db;
  for (const table of ["comments", "posts", "sessions", "accounts", "admins", "users"] as const) {
    await db.deleteFrom(table).execute();
  }
});

async function user(email: string, opts: { name?: string; verified?: boolean; admin?: boolean } = {}) {
  const id = await insertUser(database.db, { email, name: opts.name ?? "", emailVerified: opts.verified !== false });
  if (opts.admin) await addAdmins(database.db, [email], "cli");
  return id;
}

async function session(userId: string) {
  const now = nowIso();
  await database.db
    .insertInto("sessions")
    .values({
      id: newId(),
      token: newId(),
      userId,
      expiresAt: "2099-01-01T00:00:00.000Z",
      ipAddress: null,
      userAgent: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

async function account(userId: string, providerId: string) {
  const now = nowIso();
  await database.db
    .insertInto("accounts")
    .values({
      id: newId(),
      accountId: `${providerId}-${newId()}`,
      providerId,
      userId,
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope: null,
      password: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

const load = async (id: string) => {
  const u = await getUserForAdmin(database.db, id);
  if (!u) throw new Error("no user");
  return u;
};
/** Loads the user first (outside: SQLite has one connection), then runs the change in a transaction. */
async function act<T>(fn: (trx: typeof database.db, u: Awaited<ReturnType<typeof load>>) => Promise<T>, id: string) {
  const u = await load(id);
  return database.db.transaction().execute((trx) => fn(trx, u));
}

describe("listUsersForAdmin", () => {
  it("searches e-mail and name (LIKE characters literal), sorts from the allowlist, pages", async () => {
    const a = await user("ann@example.test", { name: "Ann 100%" });
    await new Promise((r) => setTimeout(r, 3));
    const b = await user("bob@example.test", { name: "Bob", admin: true });
    await new Promise((r) => setTimeout(r, 3));
    const c = await user("cy_x@example.test", { name: "Cy", verified: false });
    await account(a, "credential");
    await account(a, "github");
    await recordSignIn(database.db, b, "2026-11-20T00:00:00.000Z");
    await recordSignIn(database.db, a, "2026-11-21T00:00:00.000Z");

    const all = await listUsersForAdmin(database.db, { page: 1, pageSize: 10 });
    expect(all.items.map((u) => u.id)).toEqual([c, b, a]);
    expect(all.sort).toBe("created");
    const ann = all.items.find((u) => u.id === a);
    expect(ann?.methods).toEqual(["credential", "github"]);
    expect(all.items.find((u) => u.id === b)?.isAdmin).toBe(true);
    expect(all.items.find((u) => u.id === c)?.emailVerified).toBe(false);

    expect((await listUsersForAdmin(database.db, { q: "BOB", page: 1, pageSize: 10 })).items.map((u) => u.id)).toEqual([
      b,
    ]);
    expect((await listUsersForAdmin(database.db, { q: "100%", page: 1, pageSize: 10 })).items.map((u) => u.id)).toEqual(
      [a],
    );
    expect((await listUsersForAdmin(database.db, { q: "_", page: 1, pageSize: 10 })).items.map((u) => u.id)).toEqual([
      c,
    ]);
    expect((await listUsersForAdmin(database.db, { q: "%", page: 1, pageSize: 10 })).items.map((u) => u.id)).toEqual([
      a,
    ]);

    const byEmail = await listUsersForAdmin(database.db, { sort: "email", page: 1, pageSize: 10 });
    expect(byEmail.items.map((u) => u.id)).toEqual([a, b, c]);
    const bySignIn = await listUsersForAdmin(database.db, { sort: "lastSignIn", page: 1, pageSize: 10 });
    expect(bySignIn.items.map((u) => u.id)).toEqual([a, b, c]);
    const bogus = await listUsersForAdmin(database.db, { sort: "password; drop table users", page: 1, pageSize: 10 });
    expect(bogus.sort).toBe("created");

    const page2 = await listUsersForAdmin(database.db, { sort: "email", page: 2, pageSize: 2 });
    expect(page2).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(page2.items.map((u) => u.id)).toEqual([c]);
    const beyond = await listUsersForAdmin(database.db, { sort: "email", page: 99, pageSize: 2 });
    expect(beyond.page).toBe(2);
  });
});

describe("admin rights", () => {
  it("counts only admins whose account exists, is verified and not banned", async () => {
    await user("one@example.test", { admin: true });
    await user("unverified@example.test", { admin: true, verified: false });
    await addAdmins(database.db, ["ghost@example.test"], "env");
    expect(await countActiveAdmins(database.db)).toBe(1);
  });

  it("never revokes the last admin in effect, whatever other rows exist", async () => {
    const one = await user("one@example.test", { admin: true });
    await user("unverified@example.test", { admin: true, verified: false });
    await addAdmins(database.db, ["ghost@example.test"], "env");
    const result = await act(revokeAdmin, one);
    expect(result).toEqual({ ok: false, error: "lastAdmin" });
    expect((await load(one)).isAdmin).toBe(true);
  });

  it("grants to verified users only, then lets one of two admins go", async () => {
    const one = await user("one@example.test", { admin: true });
    const two = await user("Two@Example.test");
    const unverified = await user("new@example.test", { verified: false });
    expect(await act(grantAdmin, unverified)).toEqual({
      ok: false,
      error: "notVerified",
    });
    expect(await act(grantAdmin, two)).toEqual({ ok: true });
    const row = await database.db.selectFrom("admins").select("email").where("source", "=", "admin").execute();
    expect(row.map((r) => r.email)).toEqual(["two@example.test"]);
    expect(await countActiveAdmins(database.db)).toBe(2);
    expect(await act(revokeAdmin, one)).toEqual({ ok: true });
    expect((await load(one)).isAdmin).toBe(false);
    expect(await act(revokeAdmin, two)).toEqual({ ok: false, error: "lastAdmin" });
  });
});

describe("banUser", () => {
  it("bans, deletes every session at once, and unbans", async () => {
    const admin = await user("admin@example.test", { admin: true });
    const target = await user("target@example.test");
    const other = await user("other@example.test");
    await session(target);
    await session(target);
    await session(other);
    const actor = { id: admin, email: "admin@example.test" };
    expect(await act((trx, u) => banUser(trx, actor, u), target)).toEqual({ ok: true });
    expect(await isUserBanned(database.db, target)).toBe(true);
    expect((await load(target)).bannedAt).not.toBeNull();
    const sessions = await database.db.selectFrom("sessions").select("userId").execute();
    expect(sessions.map((s) => s.userId)).toEqual([other]);

    expect(await act(unbanUser, target)).toEqual({ ok: true });
    expect(await isUserBanned(database.db, target)).toBe(false);
    expect((await load(target)).bannedAt).toBeNull();
  });

  it("refuses to ban oneself or the last admin; a banned admin stops counting", async () => {
    const admin = await user("admin@example.test", { admin: true });
    const second = await user("second@example.test", { admin: true });
    const actor = { id: admin, email: "admin@example.test" };
    expect(await act((trx, u) => banUser(trx, actor, u), admin)).toEqual({ ok: false, error: "self" });
    expect(await act((trx, u) => banUser(trx, actor, u), second)).toEqual({ ok: true });
    expect(await countActiveAdmins(database.db)).toBe(1);
    // Another admin acting (e.g. one just listed): the last admin in effect stays.
    const third = { id: "someone-else", email: "x@example.test" };
    expect(await act((trx, u) => banUser(trx, third, u), admin)).toEqual({
      ok: false,
      error: "lastAdmin",
    });
    expect(await act(grantAdmin, second)).toEqual({ ok: false, error: "banned" });
  });
});

describe("deleteUserAccount", () => {
  it("removes the account but keeps its comments and posts, anonymised", async () => {
    const admin = await user("admin@example.test", { admin: true });
    const target = await user("target@example.test", { admin: true });
    await session(target);
    await account(target, "credential");
    n += 1;
    const postId = await createPost(database.db, {
      slug: `del-post-${n}`,
      authorId: target,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "By target" }],
    });
    const posted = await submitComment(database.db, {
      postId,
      authorId: target,
      moderation: "auto",
      body: "Mine",
    });
    if (!posted.ok || !posted.id) throw new Error("comment not stored");
    const actor = { id: admin, email: "admin@example.test" };

    expect(await act((trx, u) => deleteUserAccount(trx, actor, u), admin)).toEqual({
      ok: false,
      error: "self",
    });
    expect(await act((trx, u) => deleteUserAccount(trx, actor, u), target)).toEqual({ ok: true });

    expect(await getUserForAdmin(database.db, target)).toBeUndefined();
    const comment = await database.db
      .selectFrom("comments")
      .select(["authorId", "bodyMarkdown"])
      .where("id", "=", posted.id)
      .executeTakeFirstOrThrow();
    expect(comment).toEqual({ authorId: null, bodyMarkdown: "Mine" });
    const post = await database.db
      .selectFrom("posts")
      .select("authorId")
      .where("id", "=", postId)
      .executeTakeFirstOrThrow();
    expect(post.authorId).toBeNull();
    expect(await database.db.selectFrom("sessions").select("id").where("userId", "=", target).execute()).toEqual([]);
    expect(await database.db.selectFrom("accounts").select("id").where("userId", "=", target).execute()).toEqual([]);
    expect(
      await database.db.selectFrom("admins").select("email").where("email", "=", "target@example.test").execute(),
    ).toEqual([]);
  });

  it("never deletes the last admin", async () => {
    const admin = await user("admin@example.test", { admin: true });
    const other = { id: "another-admin-session", email: "x@example.test" };
    expect(await act((trx, u) => deleteUserAccount(trx, other, u), admin)).toEqual({
      ok: false,
      error: "lastAdmin",
    });
    expect(await getUserForAdmin(database.db, admin)).toBeDefined();
  });
});
