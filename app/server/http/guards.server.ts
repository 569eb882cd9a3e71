import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { ErrorBody } from "../../lib/error-codes.ts";
import type { RoutePolicy } from "../../lib/route-policy.ts";
import { type DatabaseHealth, DB_RETRY_AFTER_SECONDS, UNAVAILABLE_PAGE } from "../db/health.server.ts";
import type { Env } from "../platform/env.server.ts";
import { localsOf } from "./request-meta.server.ts";
import { isCrossSiteWrite } from "./security.server.ts";

/** JSON endpoints (and React Router data requests) answer in JSON, pages in text or HTML. */
const wantsJson = (req: Request) => req.path.startsWith("/api/") || req.path.endsWith(".data");

/** 503 with Retry-After while the database is away. */
export function sendUnavailable(req: Request, res: Response): void {
  res.setHeader("Retry-After", String(DB_RETRY_AFTER_SECONDS));
  res.setHeader("Cache-Control", "no-store");
  if (wantsJson(req)) {
    res
      .status(503)
      .json({ code: "unavailable", error: "The database is unavailable; try again shortly." } satisfies ErrorBody);
  } else {
    res.status(503).type("html").send(UNAVAILABLE_PAGE);
  }
}

/** How long, and how much of, a refused body is read and dropped after its 413. */
export const REFUSED_BODY_LINGER = { ms: 2_000, bytes: 8 * 1024 * 1024 };

/**
 * Reads and drops the rest of a refused body for a moment, then cuts the connection if it is
 * still coming. Closing a socket with the sender's bytes unread makes the kernel reset the
 * connection, and the client (a browser uploading a too-large image) then often loses the
 * 413 it was sent and shows a network error instead. The drain is bounded in time and bytes,
 * so a huge or endless body costs no more than that; a body that ends in time leaves the
 * connection usable.
 */
function drainRefusedBody(req: Request): void {
  let seen = 0;
  const cut = () => {
    if (!req.complete) req.socket.destroy();
  };
  const timer = setTimeout(cut, REFUSED_BODY_LINGER.ms);
  timer.unref();
  const stop = () => clearTimeout(timer);
  req.on("data", (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > REFUSED_BODY_LINGER.bytes) {
      stop();
      cut();
    }
  });
  req.once("end", stop);
  req.once("close", stop);
  req.resume();
}

/** 413, with the rest of the body drained for a bounded moment so the client reads the answer. */
export function sendTooLarge(req: Request, res: Response): void {
  drainRefusedBody(req);
  if (req.path.startsWith("/api/")) {
    res.status(413).json({ code: "too-large", error: "The request body is too large." } satisfies ErrorBody);
  } else {
    res.status(413).type("text/plain").send("Request body too large");
  }
}

/** The largest body a route takes: uploads have their own limit, plus room for the multipart framing. */
export function bodyLimitOf(policy: RoutePolicy, env: Env): number {
  return policy.body === "upload" ? env.uploadMaxBytes + 64 * 1024 : env.bodyLimitBytes;
}

/**
 * While the database is away, pages answer 503 with Retry-After instead of failing
 * one by one (the render cache before this still serves what it holds).
 */
export function whileDatabaseDown(dbHealth: DatabaseHealth): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (dbHealth.isDown()) sendUnavailable(req, res);
    else next();
  };
}

/** Cross-site form posts and fetches never reach an action (better-auth checks its own). */
export function refuseCrossSite(env: Env): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const crossSite =
      !req.path.startsWith("/api/auth/") &&
      isCrossSiteWrite({
        method: req.method,
        origin: req.get("origin"),
        secFetchSite: req.get("sec-fetch-site"),
        selfOrigin: `${req.protocol}://${req.get("host") ?? ""}`,
        publicUrl: env.publicUrl,
      });
    if (!crossSite) return next();
    localsOf(res).state.log.warn({ url: req.originalUrl, origin: req.get("origin") }, "cross-site write refused");
    if (req.path.startsWith("/api/")) {
      res.status(403).json({ code: "cross-origin", error: "Cross-origin request refused." } satisfies ErrorBody);
    } else {
      res.status(403).type("text/plain").send("Cross-site request refused");
    }
  };
}

/** A body declared larger than the route takes is refused before a byte of it is read. */
export function refuseDeclaredTooLarge(env: Env): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = Number(req.get("content-length") ?? 0);
    if (declared > bodyLimitOf(localsOf(res).route.policy, env)) sendTooLarge(req, res);
    else next();
  };
}

/** The last resort: a 503 when the database is away, else a logged 500 without details. */
export function errorHandler(dbHealth: DatabaseHealth, log: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const unavailable = dbHealth.noteError(error);
    if (!unavailable) {
      log.error({ err: error, reqId: res.locals.state?.id, url: req.originalUrl }, "unhandled request error");
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (unavailable) sendUnavailable(req, res);
    else res.status(500).type("text/plain").send("Internal server error");
  };
}
