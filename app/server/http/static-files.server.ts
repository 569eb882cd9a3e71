import { readdirSync } from "node:fs";
import express, { type NextFunction, type Request, type Response, Router } from "express";
import { precompressedAssets } from "./assets.server.ts";

/** "favicon.svg" for "/favicon.svg", "media" for "/media/a/b": the name a path starts with, decoded. */
export function firstSegment(pathname: string): string {
  const raw = pathname.slice(1).split("/", 1)[0] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The client build: hashed assets for a year, the few top-level files (favicon, social image) for an hour. */
export function staticFiles(clientDir: string): Router {
  const router = Router();
  router.use("/assets", precompressedAssets(`${clientDir}/assets`));
  router.use(
    "/assets",
    express.static(`${clientDir}/assets`, { immutable: true, maxAge: "1y", index: false, fallthrough: true }),
  );
  // The other files by name: a page request never pays for a file-system lookup (and
  // the error object a miss costs in `send`).
  const serveFile = express.static(clientDir, { maxAge: "1h", index: false });
  const topLevel = new Set(readdirSync(clientDir).filter((name) => name !== "assets"));
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (topLevel.has(firstSegment(req.path))) serveFile(req, res, next);
    else next();
  });
  return router;
}
