import type { NextFunction, Request, RequestHandler, Response } from "express";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { CLIENT_IP_HEADER, LOCALE_HEADER } from "../accounts/auth-config.server.ts";
import { requestContext, type Services, servicesContext } from "../boot/context.server.ts";
import { PRIVATE_CACHE_CONTROL } from "../cache/page-cache.server.ts";
import { isAnonymous } from "../cache/render-cache.server.ts";
import type { Env } from "../platform/env.server.ts";
import { sendFetchResponse, toFetchRequest } from "./adapter.server.ts";
import { sendRenderedPage } from "./cached-pages.server.ts";
import { bodyLimitOf, sendTooLarge, sendUnavailable } from "./guards.server.ts";
import { recordNotFound, recordRead } from "./insights.server.ts";
import { localsOf } from "./request-meta.server.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Hands the request to React Router with the services and this request's state,
 * then applies what its route declared: a public page is kept for the next reader,
 * and a signed-in write to a route that `writes: "content"` drops rendered pages.
 */
export function renderWithReactRouter(deps: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  dev: boolean;
  env: Env;
  services: Services;
  cache: Parameters<typeof sendRenderedPage>[0];
}): RequestHandler {
  const { env, services } = deps;
  const handle = createRequestHandler(deps.build, deps.dev ? "development" : "production");
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { state, route } = localsOf(res);
      const { request, body } = toFetchRequest(req, res, {
        bodyLimit: bodyLimitOf(route.policy, env),
        // The client address as Express decided it (TRUST_PROXY), never as the client claims,
        // and the language decided for the request (mail that better-auth sends is in it).
        trusted: { [CLIENT_IP_HEADER]: state.clientIp, [LOCALE_HEADER]: state.locale },
      });
      if (!req.path.endsWith(".data")) state.documentParts = new Map<string, string>();
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      context.set(requestContext, state);
      const response = await handle(request, context);
      if (body.tooLarge) {
        await response.body?.cancel();
        if (!res.headersSent) sendTooLarge(req, res);
        return;
      }
      // A loader or action failed because the database is away (entry.server's
      // handleError reported it): the reader gets 503 and Retry-After, not a 500.
      if (response.status >= 500 && services.dbHealth.isDown()) {
        await response.body?.cancel();
        sendUnavailable(req, res);
        return;
      }
      // Insights: a public page read (a cache hit counts in the cached-page step), or a 404.
      // A 304 is a read too (a feed reader polling with If-None-Match, most of all).
      if (response.status === 200 || response.status === 304)
        recordRead(services.insights, env, req, res, state.effects);
      else if (response.status === 404) recordNotFound(services.insights, req, res);
      if (await sendRenderedPage(deps.cache, req, res, response)) return;
      const anonymous = isAnonymous(req.get("cookie"));
      // Only signed-in writers can change what readers see (comments, the admin area):
      // anonymous posts (sign-up, subscribe, contact) never empty the cache.
      if (response.status < 400 && !anonymous && !SAFE_METHODS.has(req.method) && route.policy.writes === "content") {
        await services.content.changed(state.changes ?? "all");
      }
      if (!localsOf(res).page && !response.headers.has("cache-control")) {
        res.setHeader("Cache-Control", anonymous ? "no-cache" : PRIVATE_CACHE_CONTROL);
      }
      await sendFetchResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}
