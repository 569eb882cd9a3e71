import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** The HTML part, or "" when there is none. */
  html: string;
  /** Every header by its lower-case name, unfolded (the last one when repeated). */
  headers: Record<string, string>;
  receivedAt: number;
}

export interface MailCapture {
  smtpUrl: string;
  /** An HTTP endpoint listing captured mail as JSON: GET /messages?to=<address>. */
  apiUrl: string;
  messages: CapturedMail[];
  close(): Promise<void>;
}

/**
 * A local SMTP server that keeps every message it receives, for tests, with a
 * small HTTP API so test processes other than this one can read them.
 */
export async function startMailCapture(
  opts: {
    smtpPort?: number;
    /** Refuses a recipient with this SMTP reply (e.g. 451 to try later, 550 for no such mailbox). */
    refuse?: (address: string) => { code: number; message: string } | null;
  } = {},
): Promise<MailCapture> {
  const messages: CapturedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // The site pools its SMTP connections: at close, an idle one is cut after a moment, not 30 s.
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      const refusal = opts.refuse?.(address.address.toLowerCase());
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            headers: Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [
                key.toLowerCase(),
                line
                  .slice(line.indexOf(":") + 1)
                  .replace(/\r?\n[ \t]+/g, " ")
                  .trim(),
              ]),
            ),
            receivedAt: Date.now(),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // A connection's errors are emitted on the server: an app server stopped (or killed) while
  // its mail worker holds a connection resets it, and with no listener that reset would be
  // an uncaught exception in the test process. The sender going away is not a test failure.
  smtp.on("error", () => {});
  await new Promise<void>((resolve) => smtp.listen(opts.smtpPort ?? 0, "127.0.0.1", () => resolve()));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const api: HttpServer = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const to = url.searchParams.get("to")?.toLowerCase();
    const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(list));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", () => resolve()));
  const apiPort = (api.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    messages,
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => api.close(() => resolve()));
    },
  };
}

/** Waits for mail to `to` whose subject matches, via the capture's HTTP API. */
export async function waitForMail(
  apiUrl: string,
  to: string,
  subject: RegExp,
  opts: { after?: number; timeoutMs?: number } = {},
): Promise<CapturedMail> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const res = await fetch(`${apiUrl}/messages?to=${encodeURIComponent(to)}`);
    const list = (await res.json()) as CapturedMail[];
    const found = list.filter((m) => subject.test(m.subject) && m.receivedAt >= (opts.after ?? 0)).pop();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} (got ${list.length})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first link in a mail that goes to `path`. */
export function linkIn(mail: CapturedMail, path: string): string {
  const match = mail.text.match(new RegExp(`https?://[^\\s]+${path.replace(/[/]/g, "\\/")}\\?token=[^\\s]+`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
}
