import type { Logger } from "pino";
import { data } from "react-router";
import { createI18n } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { DB } from "../db/db.server.ts";
import type { SubscriberLanguages } from "../db/schema.server.ts";
import { hit, LIMITS, type RateLimitStore, scaled } from "../http/rate-limit.server.ts";
import type { Mailer, MailMessage } from "../mail/message.server.ts";
import { mailSiteName } from "../mail/site-name.server.ts";
import { normalizeEmail } from "../platform/env.server.ts";
import { requestSubscription, type TokenOutcome } from "./subscribers.server.ts";

export interface SubscribeDeps {
  db: DB;
  mailer: Mailer;
  log: Logger;
  publicUrl: string;
  rateLimitMultiplier: number;
  clientIp: string;
  rateLimits: RateLimitStore;
}

export type SubscribeResult = { ok: true } | { ok: false; retryAfter: number };

/** The confirmation mail, in the reader's language, with its unsubscribe link. */
export function subscribeConfirmMail(
  locale: Locale,
  site: string,
  params: { to: string; confirmUrl: string; unsubscribeUrl: string },
): MailMessage {
  const { t } = createI18n(locale);
  const vars = { site, url: params.confirmUrl, unsubscribeUrl: params.unsubscribeUrl };
  return {
    to: params.to,
    subject: t("subscribe.mail.confirm.subject", vars),
    text: t("subscribe.mail.confirm.body", vars),
    fromName: site,
  };
}

/**
 * A subscribe request from the footer. Over the per-address limit the caller
 * answers 429; otherwise the answer is always "check your inbox", whatever the
 * address's state (no enumeration). A confirmation mail goes out for a new,
 * pending or unsubscribed address while its own mail limit allows; a confirmed
 * address is left alone.
 */
export async function subscribe(
  deps: SubscribeDeps,
  email: string,
  locale: Locale,
  languages: SubscriberLanguages = locale,
): Promise<SubscribeResult> {
  const perIp = await hit(
    deps.rateLimits,
    `subscribe:ip:${deps.clientIp}`,
    scaled(LIMITS.subscribePerIp, deps.rateLimitMultiplier),
  );
  if (!perIp.allowed) return { ok: false, retryAfter: perIp.retryAfterSeconds };
  const address = normalizeEmail(email);
  const perEmail = await hit(
    deps.rateLimits,
    `subscribe:mail:${address}`,
    scaled(LIMITS.subscribeMailPerEmail, deps.rateLimitMultiplier),
  );
  if (!perEmail.allowed) {
    // Same answer; the earlier mail's links keep working.
    deps.log.info("subscribe mail limit reached for an address; nothing sent");
    return { ok: true };
  }
  const outcome = await requestSubscription(deps.db, { email: address, locale, languages });
  if (outcome.kind === "alreadyConfirmed") return { ok: true };
  const base = `${deps.publicUrl}/${locale}`;
  await deps.mailer.send(
    subscribeConfirmMail(locale, await mailSiteName(deps.db, locale), {
      to: address,
      confirmUrl: `${base}/subscribe/confirm?token=${outcome.confirmToken}`,
      unsubscribeUrl: `${base}/unsubscribe?token=${outcome.unsubscribeToken}`,
    }),
    { kind: "subscribe" },
  );
  return { ok: true };
}

/** Counts a confirm/unsubscribe press; the seconds to wait when over the limit, else null. */
async function tokenPressLimited(deps: Pick<SubscribeDeps, "db" | "rateLimitMultiplier" | "clientIp" | "rateLimits">) {
  const result = await hit(
    deps.rateLimits,
    `subscriber-token:ip:${deps.clientIp}`,
    scaled(LIMITS.subscriberTokenPerIp, deps.rateLimitMultiplier),
  );
  return result.allowed ? null : result.retryAfterSeconds;
}

export type TokenPressResult = {
  done: boolean;
  /** Which change was made: the page's own, or the language form's. */
  change?: "confirm" | "unsubscribe" | "languages";
  /** After a language change: what the subscriber now gets. */
  languages?: SubscriberLanguages;
  formError?: string;
  retryAfter?: number;
};

/**
 * The press of a button on a confirm or unsubscribe page (or a mail client's
 * RFC 8058 one-click POST): rate-limited per client address, then `apply`. 400 for
 * an unusable or unknown token, 429 with Retry-After over the limit.
 */
export async function pressSubscriberToken(
  deps: Pick<SubscribeDeps, "db" | "rateLimitMultiplier" | "clientIp" | "rateLimits">,
  change: NonNullable<TokenPressResult["change"]>,
  apply: (db: DB) => Promise<TokenOutcome>,
) {
  const retryAfter = await tokenPressLimited(deps);
  if (retryAfter !== null) {
    return data<TokenPressResult>(
      { done: false, formError: "common:subscribe.tooManyRequests", retryAfter },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  const outcome = await apply(deps.db);
  if (outcome.kind === "invalid") return data<TokenPressResult>({ done: false, change }, { status: 400 });
  return data<TokenPressResult>({
    done: true,
    change,
    ...(change === "languages" ? { languages: outcome.subscriber.languages } : {}),
  });
}
