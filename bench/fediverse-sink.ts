// The fake Fediverse of `npm run bench:federation` (bench/federation.ts), in its own process:
// SERVERS inbox servers on loopback (127.0.1.1, 127.0.1.2, …: each its own host, one port),
// each answering POSTs to its shared inbox (/inbox) and its users' inboxes (/users/{n}/inbox).
// Every request's HTTP signature is checked with Fedify's verifyRequest (draft-cavage or
// RFC 9421, as sent), the sender's key fetched once and cached, as a real server does; a
// request that does not verify is answered 401 and not counted. Prints its port, then, on
// GET /stats (any host), the counts as JSON.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type KeyCache, verifyRequest } from "@fedify/fedify";
import type { CryptographicKey, Multikey } from "@fedify/vocab";

const SERVERS = Number(process.env.SERVERS ?? 200);
let delivered = 0;
let refused = 0;
const perHost = new Map<string, number>();

const keys = new Map<string, CryptographicKey | Multikey | null>();
const keyCache: KeyCache = {
  get: async (keyId) => keys.get(keyId.href),
  set: async (keyId, key) => {
    keys.set(keyId.href, key);
  },
};
const documentLoader = async (url: string) => {
  const res = await fetch(url, { headers: { accept: "application/activity+json" } });
  return { contextUrl: null, document: await res.json(), documentUrl: url };
};

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === "GET" && req.url === "/stats") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ delivered, refused, hosts: perHost.size }));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const host = req.headers.host ?? "?";
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const request = new Request(`http://${host}${req.url ?? "/"}`, {
    method: req.method ?? "POST",
    headers,
    body: new Uint8Array(Buffer.concat(chunks)),
  });
  const key = await verifyRequest(request, {
    documentLoader,
    keyCache,
    spec: headers.has("signature-input") ? "rfc9421" : "draft-cavage-http-signatures-12",
  });
  if (!key) {
    refused++;
    res.writeHead(401).end();
    return;
  }
  delivered++;
  perHost.set(host, (perHost.get(host) ?? 0) + 1);
  res.writeHead(202).end();
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
// One listener per fake server, each on its own loopback address, all on one port.
await new Promise<void>((resolve) => server.listen(0, "127.0.1.1", resolve));
const address = server.address();
const port = typeof address === "object" && address ? address.port : 0;
const extra = [];
for (let n = 2; n <= SERVERS; n++) {
  const more = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => more.listen(port, `127.0.1.${n}`, resolve));
  extra.push(more);
}
console.log(`fediverse sink on port ${port}, ${SERVERS} servers`);
process.on("SIGTERM", () => process.exit(0));
