import { existsSync } from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/** The encoding to send, from Accept-Encoding: brotli first, then gzip (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (allows("br")) return "br";
  if (allows("gzip")) return "gzip";
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return "/\0";
  }
}

/**
 * Serves the build's `.br` / `.gz` copy of a hashed asset when the browser takes
 * it; anything else falls through to the plain static files.
 */
export function precompressedAssets(dir: string) {
  const root = path.resolve(dir);
  const known = new Map<string, boolean>();
  const exists = (file: string): boolean => {
    let found = known.get(file);
    if (found === undefined) {
      found = existsSync(file);
      known.set(file, found);
    }
    return found;
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    const type = TYPES[path.extname(req.path)];
    const encoding = pickEncoding(req.get("accept-encoding"));
    const file = path.resolve(root, `.${safeDecode(req.path)}`);
    const compressed = `${file}.${encoding === "br" ? "br" : "gz"}`;
    if (
      (req.method !== "GET" && req.method !== "HEAD") ||
      !type ||
      !encoding ||
      !file.startsWith(`${root}${path.sep}`) ||
      !exists(compressed)
    ) {
      next();
      return;
    }
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.sendFile(compressed, { cacheControl: false, lastModified: true, dotfiles: "deny" }, (error) => {
      if (error && !res.headersSent) next();
    });
  };
}
