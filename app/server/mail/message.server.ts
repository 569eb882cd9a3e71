import type { DB } from "../db/db.server.ts";
import { newId } from "../platform/ids.server.ts";
import { queueMail } from "./outbox.server.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /**
   * The sender's display name: the site's name in the recipient's language
   * (mail/site-name.server.ts). The address is MAIL_FROM's.
   */
  fromName: string | null;
  /** Extra headers (List-Unsubscribe, …), kept with the queued mail. */
  headers?: Record<string, string>;
}

export interface SendOptions {
  /** Unique per mail: a second send with the same key is dropped. Default: a new one each time. */
  key?: string;
  /** What the mail is for ("auth", "contact", …), for the admin and the logs. */
  kind?: string;
  /** Queue it in this transaction, so it commits (or not) with the change that causes it. */
  trx?: DB;
}

export interface Mailer {
  /**
   * Queues a mail in the outbox; the mail worker sends it (app/server/mail/outbox.server.ts).
   * Never waits on SMTP. A mail whose key was queued before is dropped.
   */
  send(message: MailMessage, options?: SendOptions): Promise<void>;
  /** Where mail goes: "smtp" or the dev outbox folder. */
  readonly target: string;
}

/** The site's mailer: every mail goes through the outbox table, then `onQueued` wakes the worker. */
export function createMailer(db: DB, opts: { target: string; onQueued(): void }): Mailer {
  return {
    target: opts.target,
    async send(message, options = {}) {
      const kind = options.kind ?? "mail";
      const queued = await queueMail(options.trx ?? db, {
        key: options.key ?? `${kind}:${newId()}`,
        kind,
        ...message,
      });
      // Inside a transaction the row is not visible yet: the worker's next tick finds it.
      if (queued && !options.trx) opts.onQueued();
    },
  };
}
