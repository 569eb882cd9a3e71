import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Env } from "../env.server.ts";
import { fromHeader } from "./site-name.server.ts";

/** One mail as the outbox worker hands it to the transport. */
export interface Envelope {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers?: Record<string, string>;
  /** The sender's display name; absent or null: MAIL_FROM as it is. */
  fromName?: string | null;
}

export interface MailTransport {
  /** Delivers one mail; throws what the SMTP server or the connection said. */
  deliver(mail: Envelope): Promise<void>;
  /** Where mail goes: "smtp" or the dev outbox folder. */
  readonly target: string;
  /** Closes the pooled SMTP connections (at shutdown). */
  close?(): Promise<void>;
}

/**
 * SMTP_URL with connection pooling on (unless the URL says otherwise): a newsletter
 * to thousands then reuses a few connections instead of opening one per mail.
 */
export function pooledSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
  return url.toString();
}

const URL_RE = /https?:\/\/[^\s<>"]+/g;

/**
 * SMTP when SMTP_URL is set; otherwise every message is written to DATA_DIR/outbox
 * as an .eml file and its links are logged, so a newcomer can verify an account
 * without a mail server. Only the outbox worker calls it.
 */
export function createMailTransport(env: Env, log: Logger): MailTransport {
  const from = env.mailFrom;
  // nodemailer is loaded with the first message, not at start (most processes send none).
  let transporter: Promise<Transporter> | undefined;
  const transport = (): Promise<Transporter> => {
    transporter ??= import("nodemailer")
      .then(({ createTransport }) =>
        env.smtpUrl
          ? createTransport(pooledSmtpUrl(env.smtpUrl))
          : createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
      )
      .catch((error: unknown) => {
        transporter = undefined; // the next message tries again
        throw error;
      });
    return transporter;
  };
  const fields = (mail: Envelope) => ({
    from: fromHeader(from, mail.fromName),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.headers ? { headers: mail.headers } : {}),
  });
  if (env.smtpUrl) {
    return {
      target: "smtp",
      async deliver(mail) {
        await (await transport()).sendMail(fields(mail));
        log.debug({ to: mail.to, subject: mail.subject }, "mail sent");
      },
      async close() {
        const pending = transporter;
        transporter = undefined;
        if (pending) (await pending.catch(() => null))?.close();
      },
    };
  }
  const outbox = path.join(env.dataDir, "outbox");
  return {
    target: outbox,
    async deliver(mail) {
      const info = await (await transport()).sendMail(fields(mail));
      mkdirSync(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`,
      );
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      const links = mail.text.match(URL_RE) ?? [];
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
