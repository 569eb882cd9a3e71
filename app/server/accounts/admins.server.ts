import { sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { normalizeEmail } from "../platform/env.server.ts";

export type AdminSource = "env" | "cli" | "setup" | "admin";

export async function isAdminEmail(db: DB, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("admins")
    .select("email")
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds admins (idempotent); returns the e-mails that were new. */
export async function addAdmins(db: DB, emails: string[], source: AdminSource): Promise<string[]> {
  const added: string[] = [];
  const now = nowIso();
  for (const email of new Set(emails.map(normalizeEmail))) {
    if (!email) continue;
    const result = await db
      .insertInto("admins")
      .values({ email, source, createdAt: now, updatedAt: now })
      .onConflict((oc) => oc.column("email").doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) added.push(email);
  }
  return added;
}

export async function removeAdmin(db: DB, email: string): Promise<boolean> {
  const result = await db.deleteFrom("admins").where("email", "=", normalizeEmail(email)).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listAdmins(db: DB): Promise<Array<{ email: string; source: string; createdAt: string }>> {
  return db.selectFrom("admins").select(["email", "source", "createdAt"]).orderBy("email").execute();
}

export async function countAdmins(db: DB): Promise<number> {
  const row = await db
    .selectFrom("admins")
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Every listed admin's address with the language they last used the site in (null when
 * they have no account yet or never chose): who gets the contact form's mail, and in
 * which language.
 */
export async function listAdminMailboxes(db: DB): Promise<Array<{ email: string; locale: string | null }>> {
  return db
    .selectFrom("admins as a")
    .leftJoin("users as u", (j) => j.on(sql`lower(u."email")`, "=", sql.ref("a.email")))
    .select(["a.email", "u.locale"])
    .orderBy("a.email")
    .execute();
}
