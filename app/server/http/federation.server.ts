import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { htmlPageOf, isFederationPath } from "../federation/paths.server.ts";
import { parseActivityBody } from "../federation/raw-json.server.ts";
import type { FederationService } from "../federation/service.server.ts";
import type { Env } from "../platform/env.server.ts";
import { sendTooLarge } from "./guards.server.ts";
import { addressBucket, hit, type RateLimitStore, spent } from "./rate-limit.server.ts";
import { clientIpOf } from "./request-meta.server.ts";

/** The largest activity an inbox takes (Mastodon's own posts are a few KiB). */
export const FEDERATION_BODY_LIMIT = 256 * 1024;

class TooLarge extends Error {}

/**
 * The inbox's budgets, each a minute long. Before anything is parsed (the signature can only
 * be checked after), a POST spends its client address's budget and then the budget of all
 * inboxes together; the sending server's own budget counts only activities whose signature
 * verified, and is checked once the body names the actor.
 */
export const INBOX_RATE_KEYS = {
  address: (ip: string) => `fedinbox:addr:${addressBucket(ip)}`,
  all: "fedinbox:all",
  server: (host: string) => `fedinbox:server:${host.toLowerCase()}`,
};

export const INBOX_RATE_WINDOW_MS = 60_000;

/** The request body, refused past `limit` bytes (declared or streamed). */
function readBody(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        reject(new TooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

function toHeaders(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/** The host of an activity's actor (the signed sender, once Fedify accepted it). */
function senderHost(activity: Record<string, unknown>): string | null {
  const actor = activity.actor;
  const id =
    typeof actor === "string"
      ? actor
      : typeof actor === "object" && actor !== null && "id" in actor && typeof actor.id === "string"
        ? actor.id
        : null;
  if (!id) return null;
  try {
    return new URL(id).host;
  } catch {
    return null;
  }
}

function sendTooMany(req: Request, res: Response, retryAfterSeconds: number): void {
  req.resume();
  res.setHeader("Retry-After", String(retryAfterSeconds));
  res.setHeader("Cache-Control", "no-store");
  res.status(429).type("text/plain").end("Too many requests");
}

/**
 * The Fediverse endpoints (WebFinger, NodeInfo, actors, inboxes, outbox, followers,
 * Articles): Fedify's own router answers them while federation is on; while it is off
 * they fall through to the not-found page. Before Fedify sees an inbox POST: the client
 * address's and the whole inbox's budgets (429), the body's size (413) and its shape as
 * raw JSON, nesting depth first (400), then the sending server's budget (429). Fedify
 * answers unsigned or badly signed activities with 401 and unknown actors with 404.
 */
export function serveFederation(deps: {
  env: Env;
  log: Logger;
  federation: FederationService;
  /** The shared rate-limit counters (database or Redis): the inbox's budgets. */
  rateLimits: RateLimitStore;
}): RequestHandler {
  const { env, log, federation, rateLimits } = deps;
  const base = new URL(env.publicUrl);
  const minute = (max: number) => ({ max, windowMs: INBOX_RATE_WINDOW_MS });
  const perAddress = minute(env.federationInboxPerAddressPerMinute);
  const total = minute(env.federationInboxTotalPerMinute);
  const perServer = minute(env.federationInboxPerMinute);
  /** Bad input from outside is not our failure: an info line, never an error with a stack. */
  const refuse = (req: Request, res: Response, reason: string) => {
    log.info({ path: req.path, ip: clientIpOf(req), reason }, "inbox activity refused");
    res.setHeader("Cache-Control", "no-store");
    res.status(400).type("text/plain").end("Invalid activity");
  };
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isFederationPath(req.path)) return next();
    try {
      if (!(await federation.status()).on) return next();
      let body: Buffer | undefined;
      let sender: string | null = null;
      if (req.method === "POST") {
        // Before a byte is read, from what cannot be made up: the connection's address
        // (TRUST_PROXY decides what that is), then everyone's together. An address past its
        // own budget spends nothing of the shared one. Remote servers retry a 429 later.
        const own = await hit(rateLimits, INBOX_RATE_KEYS.address(clientIpOf(req)), perAddress);
        if (!own.allowed) return sendTooMany(req, res, own.retryAfterSeconds);
        const all = await hit(rateLimits, INBOX_RATE_KEYS.all, total);
        if (!all.allowed) return sendTooMany(req, res, all.retryAfterSeconds);
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        const declared = Number(req.headers["content-length"] ?? 0);
        const tooLarge = () => {
          log.info({ path: req.path, ip: clientIpOf(req), reason: "too-large" }, "inbox activity refused");
          sendTooLarge(req, res);
        };
        if (declared > FEDERATION_BODY_LIMIT) return tooLarge();
        try {
          body = await readBody(req, FEDERATION_BODY_LIMIT);
        } catch (error) {
          if (error instanceof TooLarge) return tooLarge();
          throw error;
        }
      }
      if (req.method === "POST" && body) {
        // Checked as bytes before Fedify's JSON-LD work, which recurses once per level.
        const parsed = parseActivityBody(body);
        if (!parsed.ok) return refuse(req, res, parsed.reason);
        // The sending server's budget, spent only by verified activities (below): a sender
        // that spent it is refused before its signature costs anything; naming another
        // server's actor can get a request refused, never spend that server's budget.
        sender = senderHost(parsed.value);
        if (sender) {
          const budget = await spent(rateLimits, INBOX_RATE_KEYS.server(sender), perServer);
          if (!budget.allowed) return sendTooMany(req, res, budget.retryAfterSeconds);
        }
      }
      // The public URL's origin: ids and signatures are about the site's address, not the socket's.
      const url = new URL(req.originalUrl, base);
      const request = new Request(url, {
        method: req.method,
        headers: toHeaders(req),
        ...(body ? { body: new Uint8Array(body) } : {}),
      });
      let fellThrough = false;
      const response = await (await federation.load()).fetch(request, {
        contextData: federation.data,
        onNotFound: () => {
          fellThrough = true;
          return new Response(null, { status: 404 });
        },
        onNotAcceptable: () => {
          fellThrough = true;
          return new Response(null, { status: 406 });
        },
      });
      // A browser asking for an actor or an Article (HTML), as someone clicking a Mastodon
      // profile's or post's link does: sent to the blog's page for it (else the blog's 404).
      if (fellThrough && (req.method === "GET" || req.method === "HEAD") && response.status === 406) {
        const page = htmlPageOf(req.path);
        if (!page) return next();
        res.setHeader("Vary", "Accept");
        res.setHeader("Cache-Control", "no-store");
        res.redirect(303, page);
        return;
      }
      // Fedify took it, so its signature verified and its actor owns the key: it counts
      // against its server's budget, and a server given up as dead is back (deliveries resume).
      if (req.method === "POST" && response.ok && sender) {
        await hit(rateLimits, INBOX_RATE_KEYS.server(sender), perServer);
        await federation.heardFrom(sender);
      }
      res.status(response.status);
      response.headers.forEach((value, name) => {
        // Express frames (and may compress) the body itself.
        if (name !== "content-length" && name !== "content-encoding" && name !== "transfer-encoding") {
          res.setHeader(name, value);
        }
      });
      res.setHeader("Cache-Control", response.headers.get("cache-control") ?? "no-store");
      const payload = Buffer.from(await response.arrayBuffer());
      res.end(req.method === "HEAD" ? undefined : payload);
    } catch (error) {
      log.error({ err: error, path: req.path }, "federation request failed");
      if (!res.headersSent) res.status(500).type("text/plain").end("Internal error");
    }
  };
}
