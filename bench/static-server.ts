// The ceiling for `npm run bench`: the pages Inkwell rendered, served from memory
// by the smallest server node:http allows. `node bench/static-server.ts DIR` reads
// DIR/manifest.json ([{ path, file, contentType }]) and every file it names once,
// then answers GET/HEAD for exactly those paths (query string included), and
// /healthz, on HOST:PORT (127.0.0.1, 0 = any free port; it prints the port).
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface StaticPage {
  /** The request path, with its query string: "/search?q=word". */
  path: string;
  /** A file name inside the directory. */
  file: string;
  contentType: string;
}

interface Entry {
  body: Buffer;
  headers: Record<string, string>;
}

export function loadPages(dir: string): Map<string, Entry> {
  const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as StaticPage[];
  const pages = new Map<string, Entry>();
  for (const page of manifest) {
    const body = readFileSync(path.join(dir, page.file));
    pages.set(page.path, {
      body,
      headers: { "content-type": page.contentType, "content-length": String(body.length) },
    });
  }
  const health = Buffer.from("ok");
  pages.set("/healthz", {
    body: health,
    headers: { "content-type": "text/plain; charset=utf-8", "content-length": String(health.length) },
  });
  return pages;
}

/** Serves `pages` (keep-alive is node:http's default for HTTP/1.1). */
export function staticServer(pages: Map<string, Entry>): Server {
  const notFound = Buffer.from("not found");
  return createServer((req, res) => {
    const entry = req.method === "GET" || req.method === "HEAD" ? pages.get(req.url ?? "") : undefined;
    if (!entry) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "content-length": notFound.length });
      res.end(notFound);
      return;
    }
    res.writeHead(200, entry.headers);
    res.end(req.method === "HEAD" ? undefined : entry.body);
  });
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node bench/static-server.ts DIR");
    process.exit(2);
  }
  const server = staticServer(loadPages(dir));
  server.keepAliveTimeout = 5_000;
  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
    console.log(`static server on port ${(server.address() as AddressInfo).port}`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    // Idle keep-alive connections would hold close() open; the bench is done with them.
    server.closeAllConnections();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
