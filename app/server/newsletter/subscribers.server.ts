import { createHash, randomBytes } from "node:crypto";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Locale, SubscriberLanguages, SubscriberStatus } from "../db/schema.server.ts";
import { countNewsletterUnsubscribe } from "../insights/metrics.server.ts";
import { normalizeEmail } from "../platform/env.server.ts";
import { newId } from "../platform/ids.server.ts";
import { isLinkToken, subscriberFromLinkToken } from "./sends.server.ts";

export interface Subscriber {
  id: string;
  email: string;
  locale: Locale;
  status: SubscriberStatus;
  languages: SubscriberLanguages;
  bouncedAt: string | null;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = [
  "id",
  "email",
  "locale",
  "status",
  "languages",
  "bouncedAt",
  "confirmedAt",
  "unsubscribedAt",
  "createdAt",
  "updatedAt",
] as const;

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
 * address gets a pending row; a pending, unsubscribed or bounced one starts (again)
 * a new opt-in with fresh tokens (earlier links stop working) and no bounces; a
 * confirmed one is left alone. Two concurrent requests for one address leave one row.
 */
export async function requestSubscription(
  db: DB,
  input: { email: string; locale: Locale; languages?: SubscriberLanguages },
  now = new Date(),
): Promise<SubscribeOutcome> {
  const email = normalizeEmail(input.email);
  const confirmToken = newToken();
  const unsubscribeToken = newToken();
  const at = nowIso(now);
  const fresh = {
    locale: input.locale,
    languages: input.languages ?? input.locale,
    bounceCount: 0,
    bouncedAt: null,
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
    .onConflict((oc) =>
      oc
        .column("email")
        .doUpdateSet(fresh)
        .where((eb) =>
          eb.or([eb("subscribers.status", "!=", "confirmed"), eb("subscribers.bouncedAt", "is not", null)]),
        ),
    )
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
 * The subscriber an unsubscribe-page token names: the random token of the
 * confirmation mail (stored as a hash), or a newsletter's signed link token.
 */
async function subscriberIdOf(db: DB, token: string, secret: string): Promise<string | null> {
  if (!usableToken(token)) return null;
  if (isLinkToken(token)) return subscriberFromLinkToken(db, secret, token);
  const row = await db
    .selectFrom("subscribers")
    .select("id")
    .where("unsubscribeTokenHash", "=", hashSubscriberToken(token))
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Unsubscribes the address this token names, pending or confirmed (the token of
 * the confirmation mail, or a newsletter's link). Unsubscribing twice is fine; an
 * unknown token is refused and changes nothing.
 */
export async function unsubscribe(
  db: DB,
  token: string,
  secret: string,
  now = new Date(),
  /** The newsletter send whose mail the link came from, if it names one (counted in Insights). */
  fromSend: string | null = null,
): Promise<TokenOutcome> {
  const id = await subscriberIdOf(db, token, secret);
  if (!id) return { kind: "invalid" };
  const at = nowIso(now);
  const updated = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("subscribers")
      .set({ status: "unsubscribed", unsubscribedAt: at, updatedAt: at })
      .where("id", "=", id)
      .where("status", "!=", "unsubscribed")
      .returning(COLUMNS)
      .executeTakeFirst();
    // Only a real change counts: pressing the link again is no second unsubscribe.
    if (row && fromSend) await countNewsletterUnsubscribe(trx, fromSend, now);
    return row;
  });
  if (updated) return { kind: "done", subscriber: updated };
  const existing = await db.selectFrom("subscribers").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return existing ? { kind: "done", subscriber: existing } : { kind: "invalid" };
}

/** Sets which versions of new posts the subscriber this token names gets. */
export async function setSubscriberLanguages(
  db: DB,
  token: string,
  secret: string,
  languages: SubscriberLanguages,
  now = new Date(),
): Promise<TokenOutcome> {
  const id = await subscriberIdOf(db, token, secret);
  if (!id) return { kind: "invalid" };
  const updated = await db
    .updateTable("subscribers")
    .set({ languages, updatedAt: nowIso(now) })
    .where("id", "=", id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return updated ? { kind: "done", subscriber: updated } : { kind: "invalid" };
}

/** The subscriber a token names, for the unsubscribe page (null when the token names nobody). */
export async function subscriberForToken(db: DB, token: string, secret: string): Promise<Subscriber | null> {
  const id = await subscriberIdOf(db, token, secret);
  if (!id) return null;
  return (await db.selectFrom("subscribers").select(COLUMNS).where("id", "=", id).executeTakeFirst()) ?? null;
}

export async function findSubscriberByEmail(db: DB, email: string): Promise<Subscriber | null> {
  const row = await db
    .selectFrom("subscribers")
    .select(COLUMNS)
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return row ?? null;
}
