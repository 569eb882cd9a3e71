import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { Env } from "../env.server.ts";
import { isFederationPath } from "../federation/paths.server.ts";
import type { FederationService } from "../federation/service.server.ts";
import { sendTooLarge } from "./guards.server.ts";

/** The largest activity an inbox takes (Mastodon's own posts are a few KiB). */
export const FEDERATION_BODY_LIMIT = 256 * 1024;

class TooLarge extends Error {}

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

/**
 * The Fediverse endpoints (WebFinger, NodeInfo, actors, inboxes, outbox, followers,
 * Articles): Fedify's own router answers them while federation is on; while it is off
 * they fall through to the not-found page. Inbox bodies are limited to
 * FEDERATION_BODY_LIMIT (413) before Fedify reads them; Fedify answers unsigned or
 * badly signed activities with 401 and unknown actors with 404.
 */
export function serveFederation(deps: { env: Env; log: Logger; federation: FederationService }): RequestHandler {
  const { env, log, federation } = deps;
  const base = new URL(env.publicUrl);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isFederationPath(req.path)) return next();
    try {
      if (!(await federation.status()).on) return next();
      let body: Buffer | undefined;
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
      // A browser asking for an actor or an Article (HTML): the blog's own pages answer.
      if (fellThrough && (req.method === "GET" || req.method === "HEAD") && response.status === 406) return next();
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
