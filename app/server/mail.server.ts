import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Env } from "./env.server.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where mail goes: "smtp" or the dev outbox folder. */
  readonly target: string;
}

const URL_RE = /https?:\/\/[^\s<>"]+/g;

/**
 * Mail through SMTP when SMTP_URL is set; otherwise every message is written to
 * DATA_DIR/outbox as an .eml file and its links are logged, so a newcomer can
 * verify an account without a mail server.
 */
export function createMailer(env: Env, log: Logger): Mailer {
  const from = env.mailFrom;
  // nodemailer is loaded with the first message, not at start (most requests send none).
  let transporter: Promise<Transporter> | undefined;
  const transport = (): Promise<Transporter> => {
    transporter ??= import("nodemailer")
      .then(({ createTransport }) =>
        env.smtpUrl
          ? createTransport(env.smtpUrl)
          : createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
      )
      .catch((error: unknown) => {
        transporter = undefined; // the next message tries again
        throw error;
      });
    return transporter;
  };
  if (env.smtpUrl) {
    return {
      target: "smtp",
      async send(message) {
        await (await transport()).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
        log.info({ to: message.to, subject: message.subject }, "mail sent");
      },
    };
  }
  const outbox = path.join(env.dataDir, "outbox");
  return {
    target: outbox,
    async send(message) {
      const info = await (await transport()).sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      mkdirSync(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`,
      );
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      const links = message.text.match(URL_RE) ?? [];
      log.info({ to: message.to, subject: message.subject, file, links }, "mail written to the dev outbox");
    },
  };
}
