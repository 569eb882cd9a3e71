import type { NextFunction, Request, RequestHandler, Response } from "express";
import { canonicalPath } from "../../lib/canonical-path.ts";
import { headerSafe } from "./redirects.server.ts";

/**
 * Another form of a page's address (a trailing slash, a list's `/page/1`) is sent to the one
 * address with a 301 (`app/lib/canonical-path.ts`), so a page answers 200 at one address only
 * and crawlers, link checkers and caches see one page. Runs after the imported redirects (an
 * old `/feed/` row still wins) and before any page work. Only GET and HEAD: a form posting to
 * `/x/` gets the route's own answer rather than a redirect that would drop its body. The
 * client router's `.data` requests are left alone: the site's links are canonical already.
 */
export function serveCanonicalAddress(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.path.endsWith(".data")) return next();
    const canonical = canonicalPath(req.path);
    if (canonical === null) return next();
    const q = req.originalUrl.indexOf("?");
    const query = q < 0 ? "" : req.originalUrl.slice(q);
    // The rule is the site's own and does not change with its content: a day in caches is safe.
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.redirect(301, headerSafe(`${canonical}${query}`));
  };
}
