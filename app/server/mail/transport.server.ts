import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { Logger } from "pino";
import type { Env } from "../platform/env.server.ts";
import { mailboxAddress } from "./mime.server.ts";
import { fromHeader } from "./site-name.server.ts";
import { createSmtpSender } from "./smtp-sender.server.ts";

/** One mail as the outbox worker hands it to the transport. */
export interface Envelope {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers?: Record<string, string>;
  /** The sender's display name; absent or null: MAIL_FROM as it is (a `raw` message has its own From). */
  fromName?: string | null;
  /**
   * The whole message, headers and body, in pieces built by the caller
   * (app/server/mail/mime.server.ts); it is sent as it is, streamed piece by piece so
   * shared pieces are never copied, and subject and text are then only for the log.
   */
  raw?: readonly Buffer[];
}

export interface MailTransport {
  /** Delivers one mail; throws what the SMTP server or the connection said. */
  deliver(mail: Envelope): Promise<void>;
  /** Where mail goes: "smtp" or the dev outbox folder. */
  readonly target: string;
  /** Closes the pooled SMTP connections (at shutdown). */
  close?(): Promise<void>;
}

const URL_RE = /https?:\/\/[^\s<>"]+/g;

/**
 * SMTP when SMTP_URL is set (one reused connection: app/server/mail/smtp-sender.server.ts);
 * otherwise every message is written to DATA_DIR/outbox as an .eml file and its links
 * are logged, so a newcomer can verify an account without a mail server. Only the
 * outbox worker calls it.
 */
export function createMailTransport(env: Env, log: Logger): MailTransport {
  const from = env.mailFrom;
  // nodemailer's composer is loaded with the first composed message, not at start.
  let composer: Promise<typeof import("nodemailer/lib/mail-composer").default> | undefined;
  const build = async (mail: Envelope): Promise<Buffer> => {
    if (mail.raw) return Buffer.concat(mail.raw);
    composer ??= import("nodemailer/lib/mail-composer")
      .then((m) => m.default)
      .catch((error: unknown) => {
        composer = undefined; // the next message tries again
        throw error;
      });
    const MailComposer = await composer;
    return new MailComposer({
      from: fromHeader(from, mail.fromName),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      ...(mail.headers ? { headers: mail.headers } : {}),
    })
      .compile()
      .build();
  };
  if (env.smtpUrl) {
    const sender = createSmtpSender(env.smtpUrl);
    return {
      target: "smtp",
      async deliver(mail) {
        // A prebuilt message streams its pieces as they are; a composed one is built whole.
        const message = mail.raw ? Readable.from(mail.raw) : await build(mail);
        await sender.send({ from: mailboxAddress(from), to: [mail.to] }, message);
        log.debug({ to: mail.to, subject: mail.subject }, "mail sent");
      },
      close: () => sender.close(),
    };
  }
  const outbox = path.join(env.dataDir, "outbox");
  return {
    target: outbox,
    async deliver(mail) {
      const message = await build(mail);
      mkdirSync(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`,
      );
      writeFileSync(file, message, { mode: 0o600 });
      const links = (mail.raw ? "" : mail.text).match(URL_RE) ?? [];
      log.info({ to: mail.to, subject: mail.subject, file, links }, "mail written to the dev outbox");
    },
  };
}

/**
 * Whether trying again later may work: an SMTP 4xx reply or a connection that
 * failed. A 5xx reply (no such mailbox, refused) is final.
 */
export function isTemporaryFailure(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return true;
  const responseCode = "responseCode" in error ? Number(error.responseCode) : Number.NaN;
  if (Number.isFinite(responseCode)) return responseCode < 500;
  return true;
}

/** What to keep of a failure: the server's reply, else the error's message (bounded). */
export function failureText(error: unknown): string {
  const text =
    typeof error === "object" && error !== null && "response" in error && typeof error.response === "string"
      ? error.response
      : error instanceof Error
        ? error.message
        : String(error);
  return text.slice(0, 1000);
}
