import type { Readable } from "node:stream";
import type SMTPConnection from "nodemailer/lib/smtp-connection";

/** Messages sent over one connection before it is closed and a new one opened. */
const MESSAGES_PER_CONNECTION = 100;
/** An unused connection is closed after this long (the server would drop it anyway). */
const IDLE_CLOSE_MS = 5_000;

export interface SmtpSender {
  /** Sends one message; throws what the server or the connection said (responseCode on replies). */
  send(envelope: { from: string; to: string[] }, message: Buffer | Readable): Promise<void>;
  close(): Promise<void>;
}

type ConnectionOptions = SMTPConnection.Options & { auth?: SMTPConnection.Credentials };

/**
 * One SMTP connection at a time, kept open between messages and reused for up to
 * 100 of them, messages sent one after another. It replaces nodemailer's pooled
 * transport, whose per-message composer and stream pipeline stayed alive through each
 * SMTP round trip and were promoted by the garbage collector: a 10,000-reader
 * newsletter grew the heap by ~100 MiB through the pool and by a few MiB this way
 * (issue 20; docs/decisions/010-newsletter.md). Any error closes the connection; the
 * next message opens a new one.
 */
export function createSmtpSender(smtpUrl: string): SmtpSender {
  let loaded: Promise<{ Connection: typeof SMTPConnection; options: ConnectionOptions }> | undefined;
  const load = () => {
    loaded ??= Promise.all([import("nodemailer/lib/smtp-connection"), import("nodemailer/lib/shared")]).then(
      ([connection, shared]) => ({
        Connection: connection.default,
        options: shared.parseConnectionUrl(smtpUrl) as ConnectionOptions,
      }),
    );
    return loaded;
  };
  let open: { connection: SMTPConnection; sent: number } | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const drop = () => {
    const current = open;
    open = null;
    if (!current) return;
    try {
      current.connection.quit();
    } catch {
      current.connection.close();
    }
  };

  const connect = async () => {
    const { Connection, options } = await load();
    const { auth, ...connectionOptions } = options;
    const connection = new Connection(connectionOptions);
    connection.on("error", () => {
      if (open?.connection === connection) open = null;
    });
    connection.on("end", () => {
      if (open?.connection === connection) open = null;
    });
    await new Promise<void>((resolve, reject) => {
      connection.once("error", reject);
      connection.connect(() => {
        connection.removeListener("error", reject);
        resolve();
      });
    });
    if (auth?.user) {
      await new Promise<void>((resolve, reject) =>
        connection.login({ credentials: { user: auth.user, pass: auth.pass } }, (error) =>
          error ? reject(error) : resolve(),
        ),
      ).catch((error: unknown) => {
        connection.close();
        throw error;
      });
    }
    return { connection, sent: 0 };
  };

  const sendNow = async (envelope: { from: string; to: string[] }, message: Buffer | Readable) => {
    clearTimeout(idleTimer);
    if (open && open.sent >= MESSAGES_PER_CONNECTION) drop();
    open ??= await connect();
    const current = open;
    try {
      await new Promise<void>((resolve, reject) =>
        current.connection.send(envelope, message, (error) => (error ? reject(error) : resolve())),
      );
      current.sent += 1;
    } catch (error) {
      if (open === current) drop();
      throw error;
    } finally {
      idleTimer = setTimeout(drop, IDLE_CLOSE_MS);
      idleTimer.unref();
    }
  };

  return {
    send(envelope, message) {
      const result = queue.then(() => sendNow(envelope, message));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      await queue;
      clearTimeout(idleTimer);
      drop();
    },
  };
}
