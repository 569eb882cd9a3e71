import { createHash, randomBytes } from "node:crypto";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Locale, SubscriberStatus } from "../db/schema.server.ts";
import { normalizeEmail } from "../env.server.ts";
import { newId } from "../ids.server.ts";

export interface Subscriber {
  id: string;
  email: string;
  locale: Locale;
  status: SubscriberStatus;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = ["id", "email", "locale", "status", "confirmedAt", "unsubscribedAt", "createdAt", "updatedAt"] as const;

/** Tokens longer than this are refused before hashing. */
export const SUBSCRIBER_TOKEN_MAX_LENGTH = 200;

/** A fresh random token for a link (256 bits, URL-safe). */
const newToken = () => randomBytes(32).toString("base64url");

/** How a token is stored: sha256, hex. */
export const hashSubscriberToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type SubscribeOutcome =
  /** A pending row was created or refreshed: mail these tokens. */
  | { kind: "pending"; subscriber: Subscriber; confirmToken: string; unsubscribeToken: string }
  /** The address is already confirmed: nothing changed, nothing to mail. */
  | { kind: "alreadyConfirmed" };

/**
 * Records a subscription request for `email`, atomically on both dialects: a new
 * address gets a pending row; a pending or unsubscribed one starts (again) a new
 * opt-in with fresh tokens (earlier links stop working); a confirmed one is left
 * alone. Two concurrent requests for one address leave one row.
 */
export async function requestSubscription(
  db: DB,
  input: { email: string; locale: Locale },
  now = new Date(),
): Promise<SubscribeOutcome> {
  const email = normalizeEmail(input.email);
  const confirmToken = newToken();
  const unsubscribeToken = newToken();
  const at = nowIso(now);
  const fresh = {
    locale: input.locale,
    status: "pending" as const,
    confirmTokenHash: hashSubscriberToken(confirmToken),
    unsubscribeTokenHash: hashSubscriberToken(unsubscribeToken),
    confirmedAt: null,
    unsubscribedAt: null,
    updatedAt: at,
  };
  const row = await db
    .insertInto("subscribers")
    .values({ id: newId(), email, createdAt: at, ...fresh })
    .onConflict((oc) => oc.column("email").doUpdateSet(fresh).where("subscribers.status", "!=", "confirmed"))
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) return { kind: "alreadyConfirmed" };
  return { kind: "pending", subscriber: row, confirmToken, unsubscribeToken };
}

export type TokenOutcome = { kind: "done"; subscriber: Subscriber } | { kind: "invalid" };

function usableToken(token: string): boolean {
  return token.length > 0 && token.length <= SUBSCRIBER_TOKEN_MAX_LENGTH;
}

/**
 * Confirms the pending subscription whose confirmation token this is. Confirming
 * twice is fine (nothing changes the second time); an unknown token, or one of an
 * address that has unsubscribed since, is refused and changes nothing.
 */
export async function confirmSubscription(db: DB, token: string, now = new Date()): Promise<TokenOutcome> {
  if (!usableToken(token)) return { kind: "invalid" };
  const hash = hashSubscriberToken(token);
  const at = nowIso(now);
  const updated = await db
    .updateTable("subscribers")
    .set({ status: "confirmed", confirmedAt: at, updatedAt: at })
    .where("confirmTokenHash", "=", hash)
    .where("status", "=", "pending")
    .returning(COLUMNS)
    .executeTakeFirst();
  if (updated) return { kind: "done", subscriber: updated };
  const existing = await db
    .selectFrom("subscribers")
    .select(COLUMNS)
    .where("confirmTokenHash", "=", hash)
    .where("status", "=", "confirmed")
    .executeTakeFirst();
  return existing ? { kind: "done", subscriber: existing } : { kind: "invalid" };
}

/**
 * Unsubscribes the address whose unsubscribe token this is, pending or confirmed.
 * Unsubscribing twice is fine; an unknown token is refused and changes nothing.
 */
export async function unsubscribe(db: DB, token: string, now = new Date()): Promise<TokenOutcome> {
  if (!usableToken(token)) return { kind: "invalid" };
  const hash = hashSubscriberToken(token);
  const at = nowIso(now);
  const updated = await db
    .updateTable("subscribers")
    .set({ status: "unsubscribed", unsubscribedAt: at, updatedAt: at })
    .where("unsubscribeTokenHash", "=", hash)
    .where("status", "!=", "unsubscribed")
    .returning(COLUMNS)
    .executeTakeFirst();
  if (updated) return { kind: "done", subscriber: updated };
  const existing = await db
    .selectFrom("subscribers")
    .select(COLUMNS)
    .where("unsubscribeTokenHash", "=", hash)
    .executeTakeFirst();
  return existing ? { kind: "done", subscriber: existing } : { kind: "invalid" };
}

export async function findSubscriberByEmail(db: DB, email: string): Promise<Subscriber | null> {
  const row = await db
    .selectFrom("subscribers")
    .select(COLUMNS)
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return row ?? null;
}
