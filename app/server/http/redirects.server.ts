import type { NextFunction, Request, RequestHandler, Response } from "express";
import { locationFor, normalizePath } from "../../lib/redirects.ts";
import type { RedirectMap } from "../redirects/map.server.ts";

/** The query of a request URL as sent ("" for none), without React Router's own `_routes`. */
function queryOf(url: string, dataRequest: boolean): string {
  const q = url.indexOf("?");
  if (q < 0) return "";
  const query = url.slice(q + 1);
  if (!dataRequest || !query.includes("_routes=")) return query;
  return query
    .split("&")
    .filter((part) => !part.startsWith("_routes="))
    .join("&");
}

/**
 * A Location fit for a header: characters outside printable ASCII (a Chinese slug) as UTF-8
 * percent-escapes; escapes already there are left as they are.
 */
export function headerSafe(location: string): string {
  return location.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
}

/**
 * Old URLs, answered before any page work (docs/decisions/012-redirects.md): a GET or HEAD
 * whose path (and query) has a row in the redirects table gets its 301 or 302 here. The rows
 * are in memory (`RedirectMap`): a path with no redirect costs a normalisation and a map
 * lookup, never a query (a row on a post's, term's, series' or author's address first asks
 * whether that page exists: if it does, the page wins). A client-side navigation asks for
 * `/old.data`; it gets React Router's own redirect answer (204 with X-Remix-Redirect), with a
 * full page load so an external target works too.
 */
export function serveRedirects(map: RedirectMap): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let rules = map.current();
    if (rules === null) {
      try {
        rules = await map.load();
      } catch {
        // The table cannot be read (the database is away): the request goes on; the
        // database-down step answers it if it needs the database.
        return next();
      }
    }
    if (rules.size === 0) return next();
    const dataRequest = req.path.endsWith(".data");
    const rawPath = dataRequest ? req.path.slice(0, -".data".length).replace(/\/_$/, "/") : req.path;
    const path = normalizePath(rawPath || "/");
    if (path === null) return next();
    const query = queryOf(req.originalUrl, dataRequest);
    const rule = rules.match(path, query);
    if (!rule) return next();
    // A live page wins over an old row (defence in depth: the writers refuse such rows now).
    try {
      if (await map.shadowsLivePage(rule)) return next();
    } catch {
      // Whether the page is there cannot be told: never hide it; the database-down step answers.
      return next();
    }
    map.hit(rule);
    const location = headerSafe(locationFor(rule, query));
    res.setHeader("Cache-Control", "no-store");
    if (dataRequest) {
      res.setHeader("X-Remix-Redirect", location);
      res.setHeader("X-Remix-Status", String(rule.status));
      res.setHeader("X-Remix-Reload-Document", "true");
      res.status(204).end();
      return;
    }
    res.redirect(rule.status, location);
  };
}
