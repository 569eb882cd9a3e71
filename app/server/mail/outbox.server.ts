import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { acquireLease, INSTANCE_ID, releaseLease } from "../jobs/lease.server.ts";
import { type BulkCollector, bulkCollector } from "../platform/bulk-gc.server.ts";
import { newId } from "../platform/ids.server.ts";
import { type Envelope, failureText, isTemporaryFailure, type MailTransport } from "./transport.server.ts";

/** A mail to queue. `key` makes it unique: the same key queued twice is one mail. */
export interface OutboxMessage {
  key: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers?: Record<string, string>;
  /** The sender's display name (the site's name in the recipient's language). */
  fromName?: string | null;
}

/** Temporary failures are retried for this long after the mail was queued, then it fails. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_WAIT_MS = 60 * 60 * 1000;

/** How long to wait before attempt `attempts + 1`: 30 s, 1 min, 2 min, … at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);
}

/**
 * Queues a mail in `db` (a transaction, to commit it with the change that causes it).
 * True when queued now, false when a mail with this key was queued before.
 */
export async function queueMail(db: DB, message: OutboxMessage, now = new Date()): Promise<boolean> {
  const at = nowIso(now);
  const result = await db
    .insertInto("mailOutbox")
    .values({
      id: newId(),
      key: message.key,
      kind: message.kind,
      recipient: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      headers: message.headers ? JSON.stringify(message.headers) : null,
      fromName: message.fromName ?? null,
      status: "queued",
      nextAttemptAt: at,
      createdAt: at,
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export interface DueMail {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  headers: string | null;
  fromName: string | null;
  attempts: number;
  createdAt: string;
  /** A newsletter mail: rendered for its reader by the worker's `compose`. */
  sendId: string | null;
  subscriberId: string | null;
  locale: Locale | null;
}

/**
 * What the worker asks of the newsletter (app/server/newsletter): queue the next
 * recipients, render a reader's mail as it goes out (null: it must not go), and
 * count its outcome against the subscriber.
 */
export interface OutboxHooks {
  prepare(): Promise<unknown>;
  compose(mail: DueMail): Promise<Omit<Envelope, "to"> | null>;
  outcome(mail: DueMail, outcome: "sent" | "failed"): Promise<void>;
}

/** The mails due now, oldest first. */
export async function dueMail(db: DB, limit: number, now = new Date()): Promise<DueMail[]> {
  const rows = await db
    .selectFrom("mailOutbox")
    .select([
      "id",
      "recipient",
      "subject",
      "text",
      "html",
      "headers",
      "fromName",
      "attempts",
      "createdAt",
      "sendId",
      "subscriberId",
      "locale",
    ])
    .where("status", "=", "queued")
    .where("nextAttemptAt", "<=", nowIso(now))
    .orderBy("nextAttemptAt")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
}

/**
 * Runs a write of a mail's outcome. The default is the ordinary write; the worker
 * may pass one that does not wait for the disk (app/server/mail/relaxed-writes.server.ts).
 */
export type OutcomeWriter = <T>(write: (db: DB) => Promise<T>) => Promise<T>;

/** Sends one due mail and records the outcome: sent, retried later, or failed with the server's reply. */
export async function deliverOne(
  db: DB,
  transport: MailTransport,
  mail: DueMail,
  now: () => Date = () => new Date(),
  hooks?: Pick<OutboxHooks, "compose" | "outcome">,
  writeOutcome: OutcomeWriter = (write) => write(db),
): Promise<"sent" | "retry" | "failed" | "cancelled"> {
  let envelope: Envelope;
  if (mail.sendId) {
    const composed = hooks ? await hooks.compose(mail) : null;
    if (!composed) {
      await db
        .updateTable("mailOutbox")
        .set({ status: "cancelled", lastError: hooks ? "not sent: no longer wanted" : "no newsletter renderer" })
        .where("id", "=", mail.id)
        .where("status", "=", "queued")
        .execute();
      return "cancelled";
    }
    envelope = { ...composed, fromName: composed.fromName ?? mail.fromName, to: mail.recipient };
  } else {
    let headers: Record<string, string> | undefined;
    try {
      headers = mail.headers ? (JSON.parse(mail.headers) as Record<string, string>) : undefined;
    } catch {
      headers = undefined;
    }
    envelope = {
      to: mail.recipient,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers,
      fromName: mail.fromName,
    };
  }
  try {
    await transport.deliver(envelope);
  } catch (error) {
    const attempts = mail.attempts + 1;
    const at = now();
    const expired = at.getTime() - Date.parse(mail.createdAt) >= RETRY_WINDOW_MS;
    const retry = isTemporaryFailure(error) && !expired;
    await writeOutcome((w) =>
      w
        .updateTable("mailOutbox")
        .set({
          attempts,
          lastError: failureText(error),
          status: retry ? "queued" : "failed",
          nextAttemptAt: nowIso(new Date(at.getTime() + (retry ? retryDelayMs(attempts) : 0))),
        })
        .where("id", "=", mail.id)
        .execute(),
    );
    if (!retry && mail.subscriberId) await hooks?.outcome(mail, "failed");
    return retry ? "retry" : "failed";
  }
  await writeOutcome((w) =>
    w
      .updateTable("mailOutbox")
      .set({ status: "sent", attempts: mail.attempts + 1, sentAt: nowIso(now()), lastError: null })
      .where("id", "=", mail.id)
      .execute(),
  );
  if (mail.subscriberId) await hooks?.outcome(mail, "sent");
  return "sent";
}

export interface MailWorker {
  /** Looks for due mail at once (after this instance queued some). */
  poke(): void;
  stop(): Promise<void>;
}

export const MAIL_LEASE = "mail";

/**
 * Sends queued mail on the instance holding the "mail" lease, at most
 * `ratePerMinute` a minute (a bucket refilled every tick), one at a time. A crash
 * between sending and marking resends at most the one in flight.
 */
export function startMailWorker(
  db: DB,
  transport: MailTransport,
  log: Logger,
  opts: {
    ratePerMinute: number;
    intervalMs?: number;
    holder?: string;
    hooks?: OutboxHooks;
    /** How outcomes are written (default: the ordinary, fully durable write). */
    writeOutcome?: OutcomeWriter;
    /** How a long run collects its garbage (default: every few seconds, under `--expose-gc`). */
    collector?: () => BulkCollector;
  },
): MailWorker {
  const intervalMs = opts.intervalMs ?? 1000;
  const holder = opts.holder ?? INSTANCE_ID;
  const perTick = (opts.ratePerMinute * intervalMs) / 60_000;
  // Up to a minute's worth may go at once after a quiet spell.
  let budget = Math.max(1, opts.ratePerMinute);
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const run = async () => {
    if (!(await acquireLease(db, MAIL_LEASE, holder, Math.max(intervalMs * 3, 10_000)))) return;
    let renewedAt = Date.now();
    // A long run (a newsletter with the rate limit high) collects its garbage as it goes.
    const collector = (opts.collector ?? bulkCollector)();
    while (!stopped && budget >= 1) {
      // Queue newsletter recipients ahead of what can be sent now (a batch at a time).
      if (opts.hooks) await opts.hooks.prepare();
      const batch = await dueMail(db, Math.min(50, Math.floor(budget)));
      if (batch.length === 0) return;
      for (const mail of batch) {
        if (stopped) return;
        budget -= 1;
        const outcome = await deliverOne(db, transport, mail, undefined, opts.hooks, opts.writeOutcome);
        if (outcome === "retry" || outcome === "failed") log.warn({ mailId: mail.id, outcome }, "mail not delivered");
        collector.afterWork();
      }
      // A long run keeps its lease, so no other instance starts sending the same mail.
      if (Date.now() - renewedAt > intervalMs) {
        if (!(await acquireLease(db, MAIL_LEASE, holder, Math.max(intervalMs * 3, 10_000)))) return;
        renewedAt = Date.now();
      }
    }
  };
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch((error: unknown) => log.warn({ err: error }, "the mail worker failed; will retry"))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(() => {
    budget = Math.min(budget + perTick, Math.max(1, opts.ratePerMinute));
    tick();
  }, intervalMs);
  timer.unref();
  tick();
  return {
    poke: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await releaseLease(db, MAIL_LEASE, holder).catch(() => {});
      await transport.close?.();
    },
  };
}
