import { createHash, randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Env } from "../platform/env.server.ts";
import { countAdmins } from "./admins.server.ts";

export const SETUP_TOKEN_TTL_MS = 3600 * 1000;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * When no admin exists, prints a one-time link that creates the first admin
 * account (valid for an hour, single use). Earlier links stop working, and every
 * link stops working once any admin exists (ADMIN_EMAILS, another instance).
 */
export async function announceSetup(db: DB, env: Env, log: Logger): Promise<string | null> {
  if ((await countAdmins(db)) > 0) return null;
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("setupTokens").where("usedAt", "is", null).execute();
    await trx
      .insertInto("setupTokens")
      .values({
        tokenHash: hashToken(token),
        expiresAt: nowIso(new Date(now + SETUP_TOKEN_TTL_MS)),
        usedAt: null,
        createdAt: nowIso(new Date(now)),
        updatedAt: nowIso(new Date(now)),
      })
      .execute();
  });
  const url = `${env.publicUrl}/setup?token=${token}`;
  console.log(`No admin yet. Create the first admin account within an hour at:\n  ${url}`);
  log.info("printed a one-time setup link (no admin exists yet)");
  return url;
}

export async function setupTokenIsValid(db: DB, token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db
    .selectFrom("setupTokens")
    .select(["expiresAt", "usedAt"])
    .where("tokenHash", "=", hashToken(token))
    .executeTakeFirst();
  return !!row && row.usedAt === null && row.expiresAt > nowIso() && (await countAdmins(db)) === 0;
}

/** Marks the token used; true only for the one caller that got it first, and only while no admin exists. */
export async function consumeSetupToken(db: DB, token: string): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .updateTable("setupTokens")
    .set({ usedAt: now, updatedAt: now })
    .where("tokenHash", "=", hashToken(token))
    .where("usedAt", "is", null)
    .where("expiresAt", ">", now)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("admins").select("email"))))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseSetupToken(db: DB, token: string): Promise<void> {
  await db
    .updateTable("setupTokens")
    .set({ usedAt: null, updatedAt: nowIso() })
    .where("tokenHash", "=", hashToken(token))
    .execute();
}
