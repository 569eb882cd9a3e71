import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { Env } from "../env.server.ts";
import { htmlPageOf, isFederationPath } from "../federation/paths.server.ts";
import type { FederationService } from "../federation/service.server.ts";
import { hit, type RateLimitStore } from "../rate-limit.server.ts";
import { sendTooLarge } from "./guards.server.ts";
import { clientIpOf } from "./request-meta.server.ts";

/** The largest activity an inbox takes (Mastodon's own posts are a few KiB). */
export const FEDERATION_BODY_LIMIT = 256 * 1024;

class TooLarge extends Error {}

/**
 * Whose budget an inbox POST spends: the host of the key it is signed with (draft-cavage
 * `Signature: keyId="…"` or RFC 9421 `Signature-Input: …;keyid="…"`), so each remote server
 * has its own; an unsigned request spends its address's (it is refused with 401 anyway).
 */
export function inboxRateKey(headers: Record<string, string | string[] | undefined>, ip: string): string {
  for (const name of ["signature", "signature-input"] as const) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw.join(",") : raw;
    const keyId = value ? /keyid="([^"]{1,2000})"/i.exec(value)?.[1] : undefined;
    if (!keyId) continue;
    try {
      return `fedinbox:host:${new URL(keyId).host.toLowerCase()}`;
    } catch {
      break;
    }
  }
  return `fedinbox:ip:${ip}`;
}

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
function senderHost(body: Buffer): string | null {
  try {
    const activity = JSON.parse(body.toString("utf8")) as { actor?: unknown };
    const actor = activity.actor;
    const id =
      typeof actor === "string"
        ? actor
        : typeof actor === "object" && actor !== null && "id" in actor && typeof actor.id === "string"
          ? actor.id
          : null;
    return id ? new URL(id).host : null;
  } catch {
    return null;
  }
}

/**
 * The Fediverse endpoints (WebFinger, NodeInfo, actors, inboxes, outbox, followers,
 * Articles): Fedify's own router answers them while federation is on; while it is off
 * they fall through to the not-found page. Inbox bodies are limited to
 * FEDERATION_BODY_LIMIT (413) before Fedify reads them; Fedify answers unsigned or
 * badly signed activities with 401 and unknown actors with 404.
 */
export function serveFederation(deps: {
  env: Env;
  log: Logger;
  federation: FederationService;
  /** The shared rate-limit counters (database or Redis): inbox POSTs per remote server per minute. */
  rateLimits: RateLimitStore;
}): RequestHandler {
  const { env, log, federation, rateLimits } = deps;
  const base = new URL(env.publicUrl);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isFederationPath(req.path)) return next();
    try {
      if (!(await federation.status()).on) return next();
      let body: Buffer | undefined;
      if (req.method === "POST") {
        // At most FEDERATION_INBOX_PER_MINUTE activities a minute from one server; 429 past it
        // (Mastodon and others retry later), before the body is read or a signature checked.
        const limit = { max: env.federationInboxPerMinute, windowMs: INBOX_RATE_WINDOW_MS };
        const result = await hit(rateLimits, inboxRateKey(req.headers, clientIpOf(req)), limit);
        if (!result.allowed) {
          req.resume();
          res.setHeader("Retry-After", String(result.retryAfterSeconds));
          res.setHeader("Cache-Control", "no-store");
          res.status(429).type("text/plain").end("Too many requests");
          return;
        }
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        const declared = Number(req.headers["content-length"] ?? 0);
        if (declared > FEDERATION_BODY_LIMIT) return sendTooLarge(req, res);
        try {
          body = await readBody(req, FEDERATION_BODY_LIMIT);
        } catch (error) {
          if (error instanceof TooLarge) return sendTooLarge(req, res);
          throw error;
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
      // A verified activity from a server given up as dead: it is back, deliveries to it resume.
      if (req.method === "POST" && response.ok && body) {
        const server = senderHost(body);
        if (server) await federation.heardFrom(server);
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
