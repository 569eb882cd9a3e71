import { pipeline } from "node:stream/promises";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { MEDIA_URL_RE } from "../../lib/media.ts";
import { type StorageDriver, StorageError } from "../storage/types.server.ts";
import { MEDIA_CACHE_CONTROL } from "./media.server.ts";

/**
 * GET/HEAD /media/{id}/{file}: an uploaded file, straight from the store. Names
 * never change content, so responses are cacheable for a year; `nosniff` and a
 * locked-down CSP make sure a stored file is only ever an image. With
 * S3_PUBLIC_URL the browser is sent to the CDN instead.
 */
export function serveMedia(storage: StorageDriver, log: Logger) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const match = MEDIA_URL_RE.exec(req.path);
    if (!match) {
      res.setHeader("Cache-Control", "no-store");
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    const key = `${match[1]}/${match[2]}`;
    const publicUrl = storage.publicUrl(key);
    if (publicUrl) {
      res.setHeader("Cache-Control", "public, max-age=86400");
      res.redirect(302, publicUrl);
      return;
    }
    try {
      const object = await storage.get(key);
      const etag = `"${object.etag.replace(/"/g, "")}"`;
      res.setHeader("Content-Type", object.contentType);
      res.setHeader("Cache-Control", MEDIA_CACHE_CONTROL);
      res.setHeader("ETag", etag);
      res.setHeader("Last-Modified", object.lastModified.toUTCString());
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
      res.setHeader("Content-Disposition", "inline");
      res.setHeader("Cross-Origin-Resource-Policy", "same-site");
      const conditional = req.get("if-none-match");
      if (conditional?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
        object.body.destroy();
        res.status(304).end();
        return;
      }
      res.setHeader("Content-Length", String(object.size));
      if (req.method === "HEAD") {
        object.body.destroy();
        res.end();
        return;
      }
      await pipeline(object.body, res);
    } catch (error) {
      if (error instanceof StorageError && error.code === "object-not-found") {
        res.setHeader("Cache-Control", "no-store");
        res.status(404).type("text/plain").send("Not found");
        return;
      }
      if (res.headersSent) {
        log.warn({ err: error, key }, "media stream failed");
        res.destroy();
        return;
      }
      if (error instanceof StorageError) {
        log.error({ err: error, key, code: error.code }, "media read failed");
        res.setHeader("Retry-After", "30");
        res.status(503).type("text/plain").send("Storage unavailable");
        return;
      }
      next(error);
    }
  };
}
