import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { RequestEffects } from "../cache/render-cache.server.ts";
import {
  FEED_KINDS,
  type InsightSource,
  pageKindOf,
  sourceOf,
  withoutSourceParams,
} from "../insights/classify.server.ts";
import type { InsightRecorder } from "../insights/recorder.server.ts";
import type { Env } from "../platform/env.server.ts";
import { clientIpOf, localsOf } from "./request-meta.server.ts";

/**
 * Where Insights hooks into the HTTP layer: the cached-page step (a hit) and the React
 * Router step (a render) both call `recordRead` for a public page read, with the
 * effects of the render that made the page (docs/decisions/021-insights.md).
 */

const sources = new WeakMap<ExpressRequest, InsightSource | null>();

/**
 * Takes the source parameters (`utm_*`, `ref`) off a public page's URL before anything
 * reads it: the source is remembered for Insights, and the page is rendered and cached as
 * the URL without them (so our own tagged links add no copies to the render cache, and a
 * cached page never carries another reader's source in its links).
 */
export function takeSourceParams(req: ExpressRequest): void {
  const url = req.originalUrl;
  if (!url.includes("?")) return;
  const bare = withoutSourceParams(url);
  if (bare === url) return;
  sources.set(req, sourceOf(url.slice(url.indexOf("?"))));
  req.originalUrl = bare;
}

/**
 * Counts a 200 or 304 read of a public page (a document, a feed, or a client navigation's
 * data): a GET, or the reader script's beacon for a page loaded speculatively, never the
 * speculative load itself (`state.read`, read-count.server.ts).
 */
export function recordRead(
  insights: InsightRecorder,
  env: Env,
  req: ExpressRequest,
  res: ExpressResponse,
  effects: RequestEffects,
): void {
  const { state, route } = localsOf(res);
  const { read } = state;
  if (!read || route.policy.cache !== "public") return;
  const source = sources.get(req) ?? null;
  const kind = pageKindOf(route.routeId);
  if (FEED_KINDS.has(kind)) insights.recordFeedFetch(req.path, req.get("user-agent"));
  insights.recordPage({
    kind,
    postId: effects.viewedPost,
    locale: state.locale,
    ip: state.clientIp || clientIpOf(req),
    userAgent: req.get("user-agent"),
    referer: read.referer,
    host: req.get("host"),
    search: source ? `?utm_source=${source}` : "",
    country: env.insights.countryHeader ? req.get(env.insights.countryHeader) : null,
    cookie: req.get("cookie"),
  });
  if (effects.search) {
    insights.recordSearch(effects.search.query, effects.search.results, req.get("user-agent"), req.get("cookie"));
  }
}

/** Counts a document read answered 404, with where its link was. */
export function recordNotFound(insights: InsightRecorder, req: ExpressRequest, res: ExpressResponse): void {
  const { read } = localsOf(res).state;
  if (!read || req.path.endsWith(".data")) return;
  insights.recordNotFound(req.path, read.referer, req.get("host"), req.get("user-agent"), req.get("cookie"));
}
