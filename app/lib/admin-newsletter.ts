import type { Locale } from "./i18n/locale.ts";

/** How many of a send's outbox mails are in each state. */
export interface SendCounts {
  queued: number;
  sent: number;
  failed: number;
  cancelled: number;
}

export const EMPTY_COUNTS: SendCounts = { queued: 0, sent: 0, failed: 0, cancelled: 0 };

/** The counts in the order the admin pages show them. */
export const SEND_COUNT_KEYS = ["queued", "sent", "failed", "cancelled"] as const satisfies ReadonlyArray<
  keyof SendCounts
>;

/** "preparing": recipients still being queued; "sending": all queued; "cancelled". */
export type SendStatus = "preparing" | "sending" | "cancelled";

/**
 * How far a send has got: mails no longer waiting (sent, failed or cancelled) out of its
 * recipients. The total is never below the mails counted, so a send whose `recipients`
 * lags a batch behind never shows more than 100 %.
 */
export function sendProgress(recipients: number, counts: SendCounts): { done: number; total: number; percent: number } {
  const done = counts.sent + counts.failed + counts.cancelled;
  const total = Math.max(recipients, done + counts.queued);
  return { done, total, percent: total === 0 ? 0 : Math.floor((done / total) * 100) };
}

/** Whether a send is still moving: recipients being queued, or mails waiting for the worker. */
export function sendInFlight(send: { status: SendStatus; counts: SendCounts }): boolean {
  return send.status === "preparing" || send.counts.queued > 0;
}

/** A post's title in the admin's language, else the other one; null when the post is gone. */
export function titleFor(
  titles: { en: string | null; zh: string | null },
  locale: Locale,
): { title: string; locale: Locale } | null {
  const other: Locale = locale === "en" ? "zh" : "en";
  const own = titles[locale];
  if (own) return { title: own, locale };
  const fallback = titles[other];
  return fallback ? { title: fallback, locale: other } : null;
}

/** How often the newsletter page refreshes its figures while a send is moving. */
export const NEWSLETTER_REFRESH_MS = 2000;
