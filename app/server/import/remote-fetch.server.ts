import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

// Fetching a remote image for an import with `--fetch-remote` (decision 020, "Remote images"),
// safe against server-side request forgery: only http(s) on the default or a given port; the host
// name is resolved here and **every** address must be public (no loopback, private, link-local,
// shared, documentation, multicast, reserved, IPv4-mapped or NAT64 ranges), and the connection
// goes to the address that was checked (no second lookup a DNS rebinding could answer
// differently). Redirects are followed by hand, each hop checked the same way. A time-out covers
// the whole exchange, the body stops at the size limit, and only image types are taken. Tests
// may allow private addresses (a local server); nothing else does.

export interface RemoteFetchOptions {
  /** The whole fetch, redirects included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Tests only: let loopback and private addresses through. */
  allowPrivate?: boolean;
  /** Tests only: addresses taken as public (a local server standing for a remote one). */
  treatAsPublic?: readonly string[];
  /** Tests only: how host names resolve. */
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export const REMOTE_FETCH_DEFAULTS: RemoteFetchOptions = { timeoutMs: 15_000, maxBytes: 0, maxRedirects: 3 };

export type RemoteFailure =
  | "remoteUrl"
  | "remotePrivate"
  | "remoteDns"
  | "remoteTimeout"
  | "remoteTooLarge"
  | "remoteType"
  | "remoteStatus"
  | "remoteRedirects"
  | "remoteError";

export type RemoteFetch =
  | { ok: true; data: Buffer; contentType: string; url: string }
  | { ok: false; reason: RemoteFailure; detail?: string };

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  // The unspecified and loopback addresses, and the old IPv4-compatible form (::a.b.c.d).
  ["::", 96],
  // NAT64 forms would reach IPv4 addresses by the back door (IPv4-mapped ones are checked against
  // the IPv4 ranges by BlockList itself): none is needed for an image.
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** Whether an IP address is one a fetch may connect to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, "ipv4");
  if (family === 6) return !blocked.check(address, "ipv6");
  return false;
}

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|avif|svg\+xml)$/;

class Failure extends Error {
  readonly reason: RemoteFailure;
  readonly detail: string | undefined;
  constructor(reason: RemoteFailure, detail?: string) {
    super(reason);
    this.reason = reason;
    this.detail = detail;
  }
}

async function addressFor(url: URL, opts: RemoteFetchOptions): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  const addresses = literal
    ? [{ address: host, family: literal }]
    : await (opts.lookup ?? ((h: string) => dnsLookup(h, { all: true, verbatim: true })))(host).catch(() => {
        throw new Failure("remoteDns", host);
      });
  if (addresses.length === 0) throw new Failure("remoteDns", host);
  // Every address the name has: a public one beside a private one is still refused.
  const allowed = (a: string) => isPublicAddress(a) || opts.treatAsPublic?.includes(a) === true;
  if (!opts.allowPrivate && !addresses.every((a) => allowed(a.address))) throw new Failure("remotePrivate", host);
  return addresses[0] as { address: string; family: number };
}

function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Failure("remoteUrl");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Failure("remoteUrl");
  if (url.username || url.password) throw new Failure("remoteUrl");
  if (url.hostname === "" || /^localhost\.?$/i.test(url.hostname)) throw new Failure("remotePrivate", url.hostname);
  return url;
}

interface Hop {
  status: number;
  location: string | null;
  contentType: string;
  data: Buffer | null;
}

function request(url: URL, pinned: { address: string; family: number }, opts: RemoteFetchOptions, signal: AbortSignal) {
  return new Promise<Hop>((resolve, reject) => {
    const lib = url.protocol === "https:" ? https : http;
    const req = lib.request(
      url,
      {
        method: "GET",
        signal,
        headers: { "user-agent": "Inkwell-importer", accept: "image/*" },
        // Connect to the address checked above, whatever the name resolves to now (TLS still checks the name).
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) callback(null, [pinned]);
          else (callback as (e: null, a: string, f: number) => void)(null, pinned.address, pinned.family);
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers["content-type"] ?? "")
          .split(";")[0]
          ?.trim()
          .toLowerCase();
        if (status >= 300 && status < 400) {
          res.resume();
          resolve({ status, location: res.headers.location ?? null, contentType: contentType ?? "", data: null });
          return;
        }
        if (status !== 200) {
          res.resume();
          reject(new Failure("remoteStatus", String(status)));
          return;
        }
        if (!IMAGE_TYPES.test(contentType ?? "")) {
          res.destroy();
          reject(new Failure("remoteType", (contentType ?? "").slice(0, 60)));
          return;
        }
        const declared = Number(res.headers["content-length"] ?? "0");
        if (declared > opts.maxBytes) {
          res.destroy();
          reject(new Failure("remoteTooLarge", String(declared)));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            res.destroy();
            reject(new Failure("remoteTooLarge", `>${opts.maxBytes}`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({ status, location: null, contentType: contentType ?? "", data: Buffer.concat(chunks) }),
        );
        res.on("error", (error) => reject(error));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Fetches one remote image under the rules above. Never throws. */
export async function fetchRemoteImage(raw: string, opts: RemoteFetchOptions): Promise<RemoteFetch> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    let url = checkUrl(raw);
    for (let hop = 0; ; hop++) {
      const pinned = await addressFor(url, opts);
      if (controller.signal.aborted) throw new Failure("remoteTimeout");
      const answer = await request(url, pinned, opts, controller.signal);
      if (answer.data) return { ok: true, data: answer.data, contentType: answer.contentType, url: url.toString() };
      if (!answer.location) throw new Failure("remoteStatus", String(answer.status));
      if (hop >= opts.maxRedirects) throw new Failure("remoteRedirects");
      let next: URL;
      try {
        next = new URL(answer.location, url);
      } catch {
        throw new Failure("remoteUrl");
      }
      url = checkUrl(next.toString());
    }
  } catch (error) {
    if (error instanceof Failure)
      return { ok: false, reason: error.reason, ...(error.detail ? { detail: error.detail } : {}) };
    if (controller.signal.aborted) return { ok: false, reason: "remoteTimeout" };
    return { ok: false, reason: "remoteError", detail: (error instanceof Error ? error.message : "").slice(0, 120) };
  } finally {
    clearTimeout(timer);
  }
}
