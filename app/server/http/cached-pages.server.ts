import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction, RequestHandler } from "express";
import type { Services } from "../boot/context.server.ts";
import type { ContentVersionWatch } from "../cache/content-version.server.ts";
import { PUBLIC_PAGE_CACHE_CONTROL, sendPage } from "../cache/page-cache.server.ts";
import {
  AD_PAGE_TTL_MS,
  type CachedPage,
  isAnonymous,
  piecesWithNonce,
  type RenderCache,
  strongEtag,
  strongEtagWithoutNonce,
  withoutNonce,
} from "../cache/render-cache.server.ts";
import { type RenderFlights, waitAtMost } from "../cache/render-flights.server.ts";
import type { Env } from "../platform/env.server.ts";
import { recordRead, takeSourceParams } from "./insights.server.ts";
import { clientIpOf, localsOf } from "./request-meta.server.ts";

interface CacheDeps {
  env: Env;
  renderCache: RenderCache;
  contentVersion: ContentVersionWatch;
  flights: RenderFlights;
  services: Pick<Services, "views" | "adImpressions" | "insights">;
}

/**
 * How long a reader waits for another request's render of the same page before
 * rendering it too (a render stuck on a slow query must not hold everyone).
 */
export const FLIGHT_WAIT_MS = 5_000;

/**
 * Anonymous readers' public pages straight from memory, before any other work.
 * Only routes whose policy says `cache: "public"` pay for the lookup.
 */
export function serveCachedPages({ env, renderCache, contentVersion, flights, services }: CacheDeps): RequestHandler {
  const serveHit = (req: ExpressRequest, res: ExpressResponse, hit: CachedPage) => {
    // The render's counting happens on every read, cached or not (never on a prefetch).
    if (localsOf(res).state.read) {
      const userAgent = req.get("user-agent") ?? null;
      if (hit.effects.viewedPost) services.views.record(hit.effects.viewedPost, { ip: clientIpOf(req), userAgent });
      for (const ad of hit.effects.ads) services.adImpressions.record(ad, userAgent);
      recordRead(services.insights, env, req, res, hit.effects);
    }
    sendPage(req, res, { ...hit, body: piecesWithNonce(hit.parts, localsOf(res).state.nonce) }, "hit");
  };
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const locals = localsOf(res);
    // A GET, or the beacon's HEAD for the same page: both are the URL a reader was sent to.
    if (locals.route.policy.cache === "public" && (req.method === "GET" || locals.state.read)) takeSourceParams(req);
    const publicPage =
      (req.method === "GET" || req.method === "HEAD") &&
      locals.route.policy.cache === "public" &&
      isAnonymous(req.get("cookie"));
    if (!publicPage) return next();
    const key = `${locals.state.locale}|${req.get("host") ?? ""}|${req.originalUrl}`;
    const version = contentVersion.current();
    const useCache = env.renderCache.enabled && version > 0;
    locals.page = { key, version, useCache };
    const hit = useCache ? renderCache.get(key) : null;
    if (hit) return serveHit(req, res, hit);
    if (!useCache || req.method !== "GET") return next();
    // Another reader is rendering this page: wait for its copy rather than render it again.
    const pending = flights.pending(key);
    if (pending && (await waitAtMost(pending, FLIGHT_WAIT_MS))) {
      const rendered = renderCache.get(key);
      if (rendered) return serveHit(req, res, rendered);
      locals.page = { key, version: contentVersion.current(), useCache };
    }
    if (!flights.pending(key)) res.once("close", flights.start(key));
    return next();
  };
}

/**
 * Sends a public page React Router rendered, keeping a copy when it may be shared:
 * a 200 with no cookie and no private cache header. False when it is not such a page.
 */
export async function sendRenderedPage(
  { renderCache, contentVersion }: Pick<CacheDeps, "renderCache" | "contentVersion">,
  req: ExpressRequest,
  res: ExpressResponse,
  fetched: Response,
): Promise<boolean> {
  const { page, state } = localsOf(res);
  const shareable =
    page &&
    fetched.status === 200 &&
    fetched.headers.getSetCookie().length === 0 &&
    !/no-store|private/.test(fetched.headers.get("cache-control") ?? "");
  if (!page || !shareable) return false;
  const contentType = fetched.headers.get("content-type") ?? "";
  const raw = Buffer.from(await fetched.arrayBuffer());
  // A HEAD's render has no body to keep: only GETs fill the cache.
  const keep = page.useCache && req.method === "GET" && contentVersion.current() === page.version;
  // The ETag is the stored form's, the same for every response; without a copy to keep it
  // is hashed from the rendered body directly.
  const stored = keep ? withoutNonce(raw, state.nonce) : null;
  const etag = fetched.headers.get("etag") ?? (stored ? strongEtag(stored) : strongEtagWithoutNonce(raw, state.nonce));
  const cacheControl = fetched.headers.get("cache-control") ?? PUBLIC_PAGE_CACHE_CONTROL;
  const { effects } = state;
  if (stored) {
    renderCache.set(page.key, {
      status: 200,
      body: stored,
      contentType,
      etag,
      cacheControl,
      effects,
      version: page.version,
      // Ads rotate by weight; a slide's or an ad's time window opens or closes.
      expiresAt: Math.min(effects.expiresAt, effects.ads.length > 0 ? Date.now() + AD_PAGE_TTL_MS : Infinity),
    });
  }
  sendPage(req, res, { status: 200, body: raw, contentType, etag, cacheControl }, page.useCache ? "miss" : "off");
  return true;
}
