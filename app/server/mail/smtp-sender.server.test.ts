import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createSmtpSender, type SmtpSender } from "./smtp-sender.server.ts";

interface Peer {
  url: string;
  connections: number;
  received: string[];
  logins: string[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback that refuses `refuse@…` with 550 and can require a login. */
async function startPeer(opts: { login?: { user: string; pass: string } } = {}): Promise<Peer> {
  const peer: Peer = { url: "", connections: 0, received: [], logins: [], close: async () => {} };
  const server = new SMTPServer({
    authOptional: !opts.login,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    closeTimeout: 100,
    logger: false,
    onConnect(_session, callback) {
      peer.connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      peer.logins.push(auth.username ?? "");
      if (auth.username === opts.login?.user && auth.password === opts.login?.pass)
        callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("refuse@")) {
        const error = new Error("No such mailbox") as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        peer.received.push(`${session.envelope.rcptTo[0]?.address}|${Buffer.concat(chunks).toString()}`);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const auth = opts.login ? `${opts.login.user}:${opts.login.pass}@` : "";
  peer.url = `smtp://${auth}127.0.0.1:${port}`;
  peer.close = () => new Promise((resolve) => server.close(() => resolve()));
  return peer;
}

const message = (to: string, n: number) => Buffer.from(`To: ${to}\r\nSubject: ${n}\r\n\r\nHello ${n}\r\n`);

let sender: SmtpSender | undefined;
let peer: Peer | undefined;
afterEach(async () => {
  await sender?.close();
  await peer?.close();
  sender = undefined;
  peer = undefined;
});

describe("the SMTP sender", () => {
  it("reuses one connection for up to 100 messages, then opens the next", async () => {
    peer = await startPeer();
    sender = createSmtpSender(peer.url);
    // Sent without waiting: the sender still sends them one after another, in order.
    await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        sender?.send({ from: "blog@example.test", to: [`r${i}@x.test`] }, message(`r${i}@x.test`, i)),
      ),
    );
    expect(peer.received).toHaveLength(150);
    expect(peer.received[149]).toMatch(/^r149@x\.test\|/);
    expect(peer.received[149]).toContain("Hello 149");
    expect(peer.connections).toBe(2);
  });

  it("reports a refused recipient with the server's code, and the next message still goes", async () => {
    peer = await startPeer();
    sender = createSmtpSender(peer.url);
    const refused = await sender
      .send({ from: "blog@example.test", to: ["refuse@x.test"] }, message("refuse@x.test", 1))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ responseCode: 550 });
    await sender.send({ from: "blog@example.test", to: ["ok@x.test"] }, message("ok@x.test", 2));
    expect(peer.received.map((r) => r.split("|")[0])).toEqual(["ok@x.test"]);
  });

  it("signs in with the URL's credentials, and fails without a reply code on a wrong password", async () => {
    peer = await startPeer({ login: { user: "mailer", pass: "s3cret" } });
    sender = createSmtpSender(peer.url);
    await sender.send({ from: "blog@example.test", to: ["a@x.test"] }, message("a@x.test", 1));
    expect(peer.logins).toEqual(["mailer"]);
    expect(peer.received).toHaveLength(1);
    const wrong = createSmtpSender(peer.url.replace("s3cret", "nope"));
    const error = await wrong
      .send({ from: "blog@example.test", to: ["b@x.test"] }, message("b@x.test", 2))
      .catch((e: unknown) => e);
    await wrong.close();
    expect(error).toBeInstanceOf(Error);
    expect(peer.received).toHaveLength(1);
  });

  it("fails a message with a temporary error while the server is away", async () => {
    peer = await startPeer();
    sender = createSmtpSender(peer.url);
    await sender.send({ from: "blog@example.test", to: ["a@x.test"] }, message("a@x.test", 1));
    await peer.close();
    const away = await sender
      .send({ from: "blog@example.test", to: ["b@x.test"] }, message("b@x.test", 2))
      .catch((e: unknown) => e);
    expect(away).toBeInstanceOf(Error);
    expect((away as { responseCode?: number }).responseCode ?? 0).toBeLessThan(500);
  });
});
