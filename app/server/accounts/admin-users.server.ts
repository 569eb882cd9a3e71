import { sql } from "kysely";
import { isUserSort, type UserSort } from "../../lib/admin-users.ts";
import type { Actor } from "../admin/audit.server.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { type CountValue, containsText, countRows } from "../db/query.server.ts";
import { normalizeEmail } from "../platform/env.server.ts";
import { addAdmins, removeAdmin } from "./admins.server.ts";

/** The error code a banned user's sign-in fails with (guard.server.ts translates it). */
export const BANNED_CODE = "ACCOUNT_BANNED";

export async function isUserBanned(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("banned").where("id", "=", userId).executeTakeFirst();
  return Number(row?.banned ?? 0) === 1;
}

/** Called whenever a session is created (auth.server.ts). */
export async function recordSignIn(db: DB, userId: string, at = nowIso()): Promise<void> {
  await db.updateTable("users").set({ lastSignInAt: at }).where("id", "=", userId).execute();
}

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  banned: boolean;
  bannedAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
  /** Listed in `admins` (an admin in effect only when also verified and not banned). */
  isAdmin: boolean;
  /** Provider ids of the user's accounts: "credential" = password, else the OAuth provider. */
  methods: string[];
}

const userColumns = [
  "u.id",
  "u.email",
  "u.name",
  "u.emailVerified",
  "u.banned",
  "u.bannedAt",
  "u.lastSignInAt",
  "u.createdAt",
] as const;
const adminFlag = sql<CountValue>`case when exists (select 1 from "admins" a where a."email" = lower(u."email")) then 1 else 0 end`;

type UserRow = {
  id: string;
  email: string;
  name: string;
  emailVerified: number;
  banned: number;
  bannedAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
  isAdmin: CountValue;
};

async function withMethods(db: DB, rows: UserRow[]): Promise<AdminUser[]> {
  const ids = rows.map((r) => r.id);
  const accounts = ids.length
    ? await db
        .selectFrom("accounts")
        .select(["userId", "providerId"])
        .where("userId", "in", ids)
        .orderBy("providerId")
        .execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    emailVerified: Number(r.emailVerified) === 1,
    banned: Number(r.banned) === 1,
    bannedAt: r.bannedAt,
    lastSignInAt: r.lastSignInAt,
    createdAt: r.createdAt,
    isAdmin: Number(r.isAdmin) === 1,
    methods: [...new Set(accounts.filter((a) => a.userId === r.id).map((a) => a.providerId))],
  }));
}

/** Users for the admin list: search over e-mail and name, a sort from the allowlist, pages. */
export async function listUsersForAdmin(
  db: DB,
  opts: { q?: string; sort?: string; page: number; pageSize: number },
): Promise<AdminPage<AdminUser> & { sort: UserSort }> {
  const q = opts.q?.trim() ?? "";
  const sort: UserSort = isUserSort(opts.sort ?? "") ? (opts.sort as UserSort) : "created";
  const base = db.selectFrom("users as u").$if(q !== "", (qb) => qb.where(containsText(["u.email", "u.name"], q)));
  const order = {
    created: [sql`u."createdAt" desc`],
    email: [sql`u."email" asc`],
    // Never signed in last, on both dialects.
    lastSignIn: [sql`(case when u."lastSignInAt" is null then 1 else 0 end) asc`, sql`u."lastSignInAt" desc`],
  }[sort];
  const list = await adminPage(await countRows(base), opts, async (limit, offset) => {
    let query = base.select([...userColumns, adminFlag.as("isAdmin")]);
    for (const o of order) query = query.orderBy(o);
    return withMethods(db, await query.orderBy("u.id").limit(limit).offset(offset).execute());
  });
  return { ...list, sort };
}

export async function getUserForAdmin(db: DB, id: string): Promise<AdminUser | undefined> {
  const row = await db
    .selectFrom("users as u")
    .select([...userColumns, adminFlag.as("isAdmin")])
    .where("u.id", "=", id)
    .executeTakeFirst();
  return row ? (await withMethods(db, [row]))[0] : undefined;
}

/** Admins in effect: listed in `admins`, with an account whose e-mail is verified and which is not banned. */
export async function countActiveAdmins(db: DB): Promise<number> {
  const row = await db
    .selectFrom("admins as a")
    .innerJoin("users as u", (j) => j.on(sql`lower(u."email")`, "=", sql.ref("a.email")))
    .where("u.emailVerified", "=", 1)
    .where("u.banned", "=", 0)
    .select((eb) => eb.fn.countAll<CountValue>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const isActiveAdmin = (user: AdminUser) => user.isAdmin && user.emailVerified && !user.banned;

export type UserActionError = "lastAdmin" | "self" | "notVerified" | "banned";
export type UserActionResult = { ok: true } | { ok: false; error: UserActionError };

/**
 * Serialises changes that can remove an admin: every such transaction first
 * writes every `admins` row, so on PostgreSQL a second one waits for the first to
 * commit and then counts what it left (SQLite runs one write transaction at a time).
 */
async function lockAdmins(trx: DB): Promise<void> {
  await trx.updateTable("admins").set({ updatedAt: sql<string>`"updatedAt"` }).execute();
}

/** Refuses when `user` is the last admin in effect (call inside the transaction, after lockAdmins). */
async function lastAdminGuard(trx: DB, user: AdminUser): Promise<UserActionResult> {
  const fresh = await getUserForAdmin(trx, user.id);
  if (fresh && isActiveAdmin(fresh) && (await countActiveAdmins(trx)) <= 1) return { ok: false, error: "lastAdmin" };
  return { ok: true };
}

/** Lists the user's e-mail in `admins`: only a verified, not banned account. */
export async function grantAdmin(trx: DB, user: AdminUser): Promise<UserActionResult> {
  if (!user.emailVerified) return { ok: false, error: "notVerified" };
  if (user.banned) return { ok: false, error: "banned" };
  await addAdmins(trx, [user.email], "admin");
  return { ok: true };
}

/** Takes the user's e-mail out of `admins`, never the last admin in effect. Run in a transaction. */
export async function revokeAdmin(trx: DB, user: AdminUser): Promise<UserActionResult> {
  await lockAdmins(trx);
  const guard = await lastAdminGuard(trx, user);
  if (!guard.ok) return guard;
  await removeAdmin(trx, user.email);
  return { ok: true };
}

/** Bans and signs the user out everywhere at once (all sessions deleted). Run in a transaction. */
export async function banUser(trx: DB, actor: Actor, user: AdminUser): Promise<UserActionResult> {
  if (actor.id === user.id) return { ok: false, error: "self" };
  await lockAdmins(trx);
  const guard = await lastAdminGuard(trx, user);
  if (!guard.ok) return guard;
  const now = nowIso();
  await trx.updateTable("users").set({ banned: 1, bannedAt: now, updatedAt: now }).where("id", "=", user.id).execute();
  await trx.deleteFrom("sessions").where("userId", "=", user.id).execute();
  return { ok: true };
}

export async function unbanUser(trx: DB, user: AdminUser): Promise<UserActionResult> {
  await trx
    .updateTable("users")
    .set({ banned: 0, bannedAt: null, updatedAt: nowIso() })
    .where("id", "=", user.id)
    .execute();
  return { ok: true };
}

/**
 * Deletes the account: sessions, sign-in methods, pending tokens and admin rights
 * go; comments and posts stay, their author set to null (anonymised). Never the
 * acting admin, never the last admin in effect. Run in a transaction.
 */
export async function deleteUserAccount(trx: DB, actor: Actor, user: AdminUser): Promise<UserActionResult> {
  if (actor.id === user.id) return { ok: false, error: "self" };
  await lockAdmins(trx);
  const guard = await lastAdminGuard(trx, user);
  if (!guard.ok) return guard;
  await trx.updateTable("comments").set({ authorId: null }).where("authorId", "=", user.id).execute();
  await trx.updateTable("posts").set({ authorId: null }).where("authorId", "=", user.id).execute();
  await trx.deleteFrom("sessions").where("userId", "=", user.id).execute();
  await trx.deleteFrom("accounts").where("userId", "=", user.id).execute();
  await trx.deleteFrom("verifications").where("value", "=", user.id).execute();
  await trx.deleteFrom("admins").where("email", "=", normalizeEmail(user.email)).execute();
  await trx.deleteFrom("users").where("id", "=", user.id).execute();
  return { ok: true };
}

/** The id of the account with this (normalised) e-mail, or null. */
export async function userIdByEmail(db: DB, email: string): Promise<string | null> {
  const row = await db.selectFrom("users").select("id").where("email", "=", normalizeEmail(email)).executeTakeFirst();
  return row?.id ?? null;
}

/** Marks an account's e-mail verified (the /setup link proves the owner holds the server). */
export async function markEmailVerified(db: DB, userId: string): Promise<void> {
  await db.updateTable("users").set({ emailVerified: 1, updatedAt: nowIso() }).where("id", "=", userId).execute();
}
