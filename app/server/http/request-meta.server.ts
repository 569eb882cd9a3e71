import { randomUUID } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { localePrefix, resolveLocale } from "../../lib/i18n/locale.ts";
import { rpcFromCookie, solanaConnectSources, walletConnectSources } from "../../lib/solana/network.ts";
import type { RequestState } from "../boot/context.server.ts";
import { newEffects } from "../cache/render-cache.server.ts";
import type { Env } from "../platform/env.server.ts";
import { countedRead } from "./read-count.server.ts";
import type { MatchedRoute } from "./route-policies.server.ts";
import { newNonce, securityHeaders } from "./security.server.ts";

/** What the cache lookup worked out for a public page, for the handler that renders it on a miss. */
export interface PageLookup {
  key: string;
  version: number;
  useCache: boolean;
}

/** What the middlewares leave on `res.locals` for the ones after them. */
export interface RequestLocals {
  state: RequestState;
  route: MatchedRoute;
  page?: PageLookup;
}

export function localsOf(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** The client's address: the socket's, or the proxy's word when TRUST_PROXY says so (Express's req.ip). */
export function clientIpOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

function requestId(req: Request, trustProxy: boolean | number): string {
  const given = req.get("x-request-id");
  if (trustProxy && given && /^[\w.-]{1,64}$/.test(given)) return given;
  return randomUUID();
}

/** A Host header we can build a URL from: a DNS name or IPv4 address, or a bracketed IPv6 one, and a port. */
const VALID_HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export function isValidHost(host: string | undefined): boolean {
  return host === undefined || VALID_HOST.test(host);
}

/**
 * First for every request: its id, CSP nonce and security headers, the request log
 * line, its route's policy, and its language, decided once for everything after.
 */
export function requestMeta(deps: {
  env: Env;
  log: Logger;
  dev: boolean;
  matchRoute: (pathname: string) => MatchedRoute;
}): RequestHandler {
  const { env, log, dev, matchRoute } = deps;
  const https = env.publicUrl.startsWith("https://");
  const walletConnect = walletConnectSources(env.walletConnectProjectId, env.walletConnectRelayUrl);
  return (req: Request, res: Response, next: NextFunction) => {
    const id = requestId(req, env.trustProxy);
    const nonce = newNonce();
    res.setHeader("X-Request-Id", id);
    // A Host no URL can be made of (`Host: a b`) is the client's mistake, not ours.
    if (!isValidHost(req.get("host"))) {
      res.status(400).type("text/plain").send("Bad Host header");
      return;
    }
    const route = matchRoute(req.path);
    // The /solana pages talk to a Solana RPC (another origin): only they get it in connect-src.
    // With WalletConnect on, they may also open its relay's socket and its Verify frame (any
    // /solana page: the WalletConnect page is reached by client-side navigation too).
    const solana = route.policy.csp === "solana";
    const connectExtra = solana
      ? [
          ...solanaConnectSources(env.solanaRpcUrl, rpcFromCookie(req.headers.cookie)),
          ...(walletConnect ? walletConnect.connect : []),
        ]
      : [];
    const frameExtra = solana && walletConnect ? walletConnect.frame : [];
    for (const [name, value] of Object.entries(securityHeaders(nonce, { dev, https, connectExtra, frameExtra }))) {
      res.setHeader(name, value);
    }
    const locale = resolveLocale({
      pathname: req.path,
      cookie: req.get("cookie") ?? null,
      host: req.get("host") ?? "",
      acceptLanguage: req.get("accept-language") ?? null,
    });
    let child: Logger | undefined;
    const state: RequestState = {
      id,
      nonce,
      clientIp: clientIpOf(req),
      locale,
      prefix: localePrefix(req.path),
      // Made on first use: a cached page never logs.
      get log() {
        child ??= log.child({ reqId: id });
        return child;
      },
      policy: route.policy,
      effects: newEffects(),
      read: countedRead({
        method: req.method,
        header: (name) => req.get(name),
        revalidation: req.path.endsWith(".data") && "_routes" in req.query,
      }),
    };
    Object.assign(res.locals, { state, route } satisfies RequestLocals);
    if (env.logRequests) {
      const started = process.hrtime.bigint();
      res.on("finish", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info(
          { reqId: id, method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          "request",
        );
      });
    }
    next();
  };
}
