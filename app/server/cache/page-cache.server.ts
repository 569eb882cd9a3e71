import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/** Public pages for anonymous readers: a CDN may keep them briefly and serve them stale while it checks. */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, must-revalidate, s-maxage=30, stale-while-revalidate=60";
/** Anything for a signed-in reader: this browser only, checked every time. */
export const PRIVATE_CACHE_CONTROL = "private, no-cache";

/** True when the request's If-None-Match names this ETag (weak or strong, or "*"). */
export function matchesEtag(req: ExpressRequest, etag: string): boolean {
  const header = req.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * Sends a stored page (or 304). A 304 carries no Content-Security-Policy: the
 * browser keeps the one stored with its copy, which matches that copy's nonce.
 */
export function sendPage(
  req: ExpressRequest,
  res: ExpressResponse,
  page: { status: number; body: Buffer | readonly Buffer[]; contentType: string; etag: string; cacheControl: string },
  cacheState: "hit" | "miss" | "off",
): void {
  res.setHeader("ETag", page.etag);
  res.setHeader("Cache-Control", page.cacheControl);
  res.setHeader("Vary", "Cookie, Accept-Language");
  res.setHeader("X-Render-Cache", cacheState);
  if (matchesEtag(req, page.etag)) {
    res.removeHeader("Content-Security-Policy");
    res.status(304).end();
    return;
  }
  res.status(page.status);
  res.setHeader("Content-Type", page.contentType);
  const { body } = page;
  const length = Buffer.isBuffer(body) ? body.length : body.reduce((sum, piece) => sum + piece.length, 0);
  if (req.method === "HEAD") {
    res.setHeader("Content-Length", String(length));
    res.end();
    return;
  }
  if (Buffer.isBuffer(body)) {
    res.end(body);
    return;
  }
  // Pieces of one body (a stored page around this response's nonce): written in order, sent
  // together (the compression step, when it runs, drops the length and compresses them as one).
  res.setHeader("Content-Length", String(length));
  res.cork();
  for (const piece of body) res.write(piece);
  res.end();
  res.uncork();
}
