import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

/**
 * A WalletConnect relay for tests: a WebSocket server speaking the relay JSON-RPC the sign client
 * sends (irn_subscribe / irn_batchSubscribe / irn_unsubscribe / irn_batchUnsubscribe /
 * irn_publish / irn_batchPublish / irn_batchFetchMessages, and the session calls
 * wc_proposeSession / wc_approveSession), delivering messages as irn_subscription requests.
 * Messages are opaque (end-to-end encrypted by the clients); the relay routes them by topic and
 * keeps them (a mailbox) so a client that subscribes later still receives them, until that client
 * (its key, across sockets and reloads) acknowledges them.
 */
export interface TestRelay {
  /** ws://127.0.0.1:port */
  url: string;
  /** Every request method received, in order (the tests can check what was used). */
  methods: string[];
  /** Closes every socket and the server. */
  close(): Promise<void>;
}

interface Stored {
  topic: string;
  message: string;
  publishedAt: number;
  tag: number;
  attestation?: string;
  hash: string;
  expiresAt: number;
}

interface Client {
  socket: WebSocket;
  /** Who the client is across reconnects: the `iss` of its relay JWT (its did:key). */
  clientId: string;
  subscriptions: Map<string, string>;
  /** Messages sent on this socket, and the hash behind each irn_subscription request id. */
  sent: Set<string>;
  pending: Map<string, string>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Request {
  id: number | string;
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, Json>;
}

/** The `iss` claim (did:key) of the relay auth JWT in the `auth` query parameter (not verified: tests only). */
function clientIdOf(url: string): string {
  const auth = new URL(url, "ws://relay").searchParams.get("auth") ?? "";
  const payload = auth.split(".")[1];
  if (payload) {
    try {
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { iss?: unknown };
      if (typeof claims.iss === "string") return claims.iss;
    } catch {
      // an unreadable token: treat the socket as its own client
    }
  }
  return randomBytes(8).toString("hex");
}

export async function startTestRelay(): Promise<TestRelay> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const methods: string[] = [];
  const mailbox: Stored[] = [];
  /** Message hashes each client id acknowledged (or sent itself): never delivered to it again. */
  const acked = new Map<string, Set<string>>();
  const ackedBy = (clientId: string) => {
    let set = acked.get(clientId);
    if (!set) {
      set = new Set();
      acked.set(clientId, set);
    }
    return set;
  };
  const clients = new Set<Client>();
  let nextId = 1;

  const alive = () => {
    const now = Date.now();
    for (let i = mailbox.length - 1; i >= 0; i--) if ((mailbox[i] as Stored).expiresAt < now) mailbox.splice(i, 1);
    return mailbox;
  };

  const send = (client: Client, payload: object) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(payload));
  };

  const deliver = (client: Client, stored: Stored) => {
    const subscription = client.subscriptions.get(stored.topic);
    if (!subscription) return;
    if (client.sent.has(stored.hash) || ackedBy(client.clientId).has(stored.hash)) return;
    client.sent.add(stored.hash);
    const id = Date.now() * 1000 + (nextId++ % 1000);
    client.pending.set(String(id), stored.hash);
    send(client, {
      id,
      jsonrpc: "2.0",
      method: "irn_subscription",
      params: {
        id: subscription,
        data: {
          topic: stored.topic,
          message: stored.message,
          publishedAt: stored.publishedAt,
          tag: stored.tag,
          ...(stored.attestation ? { attestation: stored.attestation } : {}),
        },
      },
    });
  };

  const publish = (from: Client, topic: string, message: string, ttl: number, tag: number, attestation?: string) => {
    const stored: Stored = {
      topic,
      message,
      publishedAt: Date.now(),
      tag,
      ...(attestation ? { attestation } : {}),
      hash: createHash("sha256").update(topic).update("\n").update(message).digest("hex"),
      expiresAt: Date.now() + Math.max(1, ttl) * 1000,
    };
    // The sender never gets its own message back.
    ackedBy(from.clientId).add(stored.hash);
    alive().push(stored);
    for (const client of clients) if (client !== from) deliver(client, stored);
  };

  /** Subscribes (the id is the one the client computes: sha256 of topic + client id), then empties the mailbox to it. */
  const subscribe = (client: Client, topic: string): string => {
    let id = client.subscriptions.get(topic);
    if (!id) {
      id = createHash("sha256").update(`${topic}${client.clientId}`).digest("hex");
      client.subscriptions.set(topic, id);
    }
    // After the answer to this request, as a relay does.
    setImmediate(() => {
      for (const stored of alive()) if (stored.topic === topic) deliver(client, stored);
    });
    return id;
  };

  const str = (value: Json | undefined): string => (typeof value === "string" ? value : "");
  const num = (value: Json | undefined, fallback: number): number => (typeof value === "number" ? value : fallback);
  const attestationOf = (params: Record<string, Json>) =>
    typeof params.attestation === "string" && params.attestation ? params.attestation : undefined;

  function handle(client: Client, request: Request): Json {
    const params = request.params ?? {};
    switch (request.method) {
      case "irn_subscribe":
        return subscribe(client, str(params.topic));
      case "irn_batchSubscribe": {
        const topics = Array.isArray(params.topics) ? params.topics.map((t) => str(t)) : [];
        return topics.map((topic) => subscribe(client, topic));
      }
      case "irn_unsubscribe":
        client.subscriptions.delete(str(params.topic));
        return true;
      case "irn_batchUnsubscribe": {
        const subs = Array.isArray(params.subscriptions) ? params.subscriptions : [];
        for (const sub of subs) {
          if (sub && typeof sub === "object" && !Array.isArray(sub)) client.subscriptions.delete(str(sub.topic));
        }
        return true;
      }
      case "irn_publish":
        publish(
          client,
          str(params.topic),
          str(params.message),
          num(params.ttl, 300),
          num(params.tag, 0),
          attestationOf(params),
        );
        return true;
      case "irn_batchPublish": {
        const messages = Array.isArray(params.messages) ? params.messages : [];
        for (const m of messages) {
          if (!m || typeof m !== "object" || Array.isArray(m)) continue;
          publish(client, str(m.topic), str(m.message), num(m.ttl, 300), num(m.tag, 0));
        }
        return true;
      }
      case "irn_batchFetchMessages": {
        // Subscriptions already deliver the mailbox: nothing more to fetch.
        return { messages: [], hasMore: false };
      }
      case "wc_proposeSession":
        // The proposer does not subscribe to the pairing topic itself: this call does it.
        subscribe(client, str(params.pairingTopic));
        publish(
          client,
          str(params.pairingTopic),
          str(params.sessionProposal),
          num(params.ttl, 300),
          num(params.tag, 0),
          attestationOf(params),
        );
        return true;
      case "wc_approveSession":
        // Likewise the wallet to the new session topic.
        subscribe(client, str(params.sessionTopic));
        publish(client, str(params.pairingTopic), str(params.sessionProposalResponse), num(params.ttl, 300), 1101);
        publish(client, str(params.sessionTopic), str(params.sessionSettlementRequest), num(params.ttl, 300), 1102);
        return true;
      default:
        throw new Error(`method not served by the test relay: ${request.method}`);
    }
  }

  server.on("connection", (socket, req) => {
    const client: Client = {
      socket,
      clientId: clientIdOf(req.url ?? "/"),
      subscriptions: new Map(),
      sent: new Set(),
      pending: new Map(),
    };
    clients.add(client);
    socket.on("close", () => clients.delete(client));
    socket.on("message", (data) => {
      let payload: unknown;
      try {
        payload = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (!payload || typeof payload !== "object" || !("id" in payload)) return;
      // An acknowledgement of one of our irn_subscription requests.
      if (!("method" in payload)) {
        const hash = client.pending.get(String(payload.id));
        if (hash) ackedBy(client.clientId).add(hash);
        client.pending.delete(String(payload.id));
        return;
      }
      const request = payload as Request;
      methods.push(request.method);
      try {
        send(client, { id: request.id, jsonrpc: "2.0", result: handle(client, request) });
      } catch (error) {
        send(client, {
          id: request.id,
          jsonrpc: "2.0",
          error: { code: -32601, message: error instanceof Error ? error.message : String(error) },
        });
      }
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.socket.terminate();
        server.close(() => resolve());
      }),
  };
}
