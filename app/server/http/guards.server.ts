import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { ErrorBody } from "../../lib/error-codes.ts";
import type { RoutePolicy } from "../../lib/route-policy.ts";
import { type DatabaseHealth, DB_RETRY_AFTER_SECONDS, UNAVAILABLE_PAGE } from "../db/health.server.ts";
import type { Env } from "../env.server.ts";
import { isCrossSiteWrite } from "../security.server.ts";
import { localsOf } from "./request-meta.server.ts";

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

/** 413, and the connection is dropped rather than the rest of the body read. */
export function sendTooLarge(req: Request, res: Response): void {
  res.setHeader("Connection", "close");
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
