import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import {
  type Context,
  createFederation,
  exportJwk,
  type Federation,
  generateCryptoKeyPair,
  importJwk,
  MemoryKvStore,
  signRequest,
} from "@fedify/fedify";
import { Accept, type Activity, Create, Delete, Endpoints, Follow, Image, Person, Undo, Update } from "@fedify/vocab";
import { freePort } from "./server-process.ts";

// A Mastodon-like account on loopback, built with Fedify: @alice@127.0.0.1:port. It
// follows and unfollows a blog actor and records every activity its inbox accepted
// (Fedify verified each one's HTTP signature against the sender's key first).

export interface ReceivedActivity {
  type: string;
  json: Record<string, unknown>;
  /** The request's signature headers as sent. */
  signature: string | null;
}

export interface FediversePeer {
  url: string;
  actorId: URL;
  received: ReceivedActivity[];
  /** The next `n` deliveries to the inbox are answered 503 (a server that is down). */
  failNext(n: number): void;
  /** Deliveries answered 503 so far. */
  failed(): number;
  /**
   * Finds an account by its handle through WebFinger, as Mastodon's search does (over http:
   * Fedify's own acct: lookup always asks https), and returns the actor's id.
   */
  lookup(handle: string): Promise<URL>;
  /** Sends a Follow to the actor at `target` (its id) as alice; returns the Follow's id (or reuses `id`: a replay). */
  follow(target: URL, id?: string): Promise<string>;
  /** Sends alice's Undo(Follow), signed by `as` (default alice; "mallory" undoes someone else's follow). */
  unfollow(target: URL, followId: string, as?: PeerUser): Promise<void>;
  /** The id of one of the peer's accounts. */
  actorUri(user: PeerUser): URL;
  /** A new id on the peer's server under `user` (for notes and activities). */
  newId(user: PeerUser, kind: string): URL;
  /** Sends any activity to the blog actor at `target`, signed by `as` (default alice). */
  send(target: URL, activity: Activity, as?: PeerUser): Promise<void>;
  /**
   * POSTs `body` to `inbox` signed with alice's key in the given HTTP signature format
   * (Fedify's own sending tries RFC 9421 first): the blog must take both.
   */
  postSigned(inbox: string, body: string, spec: "draft-cavage-http-signatures-12" | "rfc9421"): Promise<Response>;
  waitFor(predicate: (a: ReceivedActivity) => boolean, timeoutMs?: number): Promise<ReceivedActivity>;
  close(): Promise<void>;
}

type Data = undefined;

/** alice follows; mallory is another account of the same server, for forgeries. */
export type PeerUser = "alice" | "mallory";
const USERS: readonly string[] = ["alice", "mallory"];

export async function startFediversePeer(): Promise<FediversePeer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const rsa = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const keys = [{ privateKey: await importJwk(await exportJwk(rsa.privateKey), "private"), publicKey: rsa.publicKey }];
  const received: ReceivedActivity[] = [];
  const signatures = new Map<string, string | null>();

  const federation: Federation<Data> = createFederation<Data>({
    kv: new MemoryKvStore(),
    origin,
    allowPrivateAddress: true,
  });
  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (!USERS.includes(identifier)) return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: identifier === "alice" ? "Alice Peer" : "Mallory Peer",
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        // An avatar on the peer's own server: the blog must never make readers fetch it.
        icon: new Image({ url: new URL(`/avatars/${identifier}.png`, origin) }),
      });
    })
    .setKeyPairsDispatcher(() => keys);
  const record = async (ctx: Context<Data>, activity: Activity, type: string) => {
    const json = (await activity.toJsonLd({ format: "compact", contextLoader: ctx.contextLoader })) as Record<
      string,
      unknown
    >;
    received.push({ type, json, signature: signatures.get(activity.id?.href ?? "") ?? null });
  };
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Accept, (ctx, a) => record(ctx, a, "Accept"))
    .on(Create, (ctx, a) => record(ctx, a, "Create"))
    .on(Update, (ctx, a) => record(ctx, a, "Update"))
    .on(Delete, (ctx, a) => record(ctx, a, "Delete"));

  let failing = 0;
  let failedCount = 0;
  const server: Server = createServer(async (req, res) => {
    if (req.method === "POST" && failing > 0) {
      failing--;
      failedCount++;
      req.resume();
      res.writeHead(503).end("down");
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    if (req.method === "POST") {
      try {
        const id = (JSON.parse(body.toString()) as { id?: string }).id;
        if (id) signatures.set(id, headers.get("signature") ?? headers.get("signature-input"));
      } catch {}
    }
    const response = await federation.fetch(
      new Request(new URL(req.url ?? "/", origin), {
        method: req.method ?? "GET",
        headers,
        ...(req.method === "POST" ? { body: new Uint8Array(body) } : {}),
      }),
      { contextData: undefined },
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const ctx = federation.createContext(new URL(origin), undefined);
  const actorId = ctx.getActorUri("alice");

  const peer: FediversePeer = {
    url: origin,
    actorId,
    received,
    failNext(n) {
      failing = n;
    },
    failed: () => failedCount,
    async lookup(handle) {
      const host = handle.slice(handle.lastIndexOf("@") + 1);
      const resource = `acct:${handle.replace(/^@/, "")}`;
      const res = await fetch(`http://${host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, {
        headers: { accept: "application/jrd+json" },
      });
      if (!res.ok) throw new Error(`WebFinger ${handle}: ${res.status}`);
      const jrd = (await res.json()) as { links?: Array<{ rel: string; type?: string; href?: string }> };
      const self = jrd.links?.find((l) => l.rel === "self" && l.type === "application/activity+json" && l.href);
      if (!self?.href) throw new Error(`WebFinger ${handle}: no actor link`);
      const actor = await ctx.lookupObject(self.href);
      if (!(actor instanceof Person) || actor.id === null) throw new Error(`WebFinger ${handle}: not an actor`);
      return actor.id;
    },
    async follow(target, reuse) {
      const id = new URL(reuse ?? `#follows/${randomUUID()}`, actorId);
      const blog = await ctx.lookupObject(target);
      if (!(blog instanceof Person)) throw new Error(`not an actor: ${target.href}`);
      await ctx.sendActivity({ identifier: "alice" }, blog, new Follow({ id, actor: actorId, object: target }));
      return id.href;
    },
    async unfollow(target, followId, as = "alice") {
      const blog = await ctx.lookupObject(target);
      if (!(blog instanceof Person)) throw new Error(`not an actor: ${target.href}`);
      const sender = ctx.getActorUri(as);
      await ctx.sendActivity(
        { identifier: as },
        blog,
        new Undo({
          id: new URL(`#undo/${randomUUID()}`, sender),
          actor: sender,
          object: new Follow({ id: new URL(followId), actor: actorId, object: target }),
        }),
      );
    },
    actorUri: (user) => ctx.getActorUri(user),
    newId: (user, kind) => new URL(`/users/${user}/${kind}/${randomUUID()}`, origin),
    async send(target, activity, as = "alice") {
      const blog = await ctx.lookupObject(target);
      if (!(blog instanceof Person)) throw new Error(`not an actor: ${target.href}`);
      await ctx.sendActivity({ identifier: as }, blog, activity);
    },
    async postSigned(inbox, body, spec) {
      const key = keys[0];
      if (!key) throw new Error("peer: no key");
      const request = new Request(inbox, {
        method: "POST",
        headers: { "content-type": "application/activity+json", accept: "application/activity+json" },
        body,
      });
      const signed = await signRequest(request, key.privateKey, new URL("#main-key", ctx.getActorUri("alice")), {
        spec,
      });
      return fetch(signed);
    },
    async waitFor(predicate, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() > until) {
          throw new Error(`peer: no matching activity; got ${received.map((r) => r.type).join(", ") || "none"}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return peer;
}
