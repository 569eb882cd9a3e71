import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small round-robin reverse proxy for the cluster test, as a load balancer in
 * front of several instances would be. It sets X-Forwarded-For (from the
 * request's `x-test-client-ip`, so a test can play several clients) and
 * X-Forwarded-Proto, tags each answer with the backend that gave it, and retries
 * the next backend when one refuses the connection (it is down: the request never
 * reached it). A connection that breaks mid-request is not retried for writes:
 * the write may have happened, so the client gets a 502 and does not count it.
 */
export interface TestProxy {
  url: string;
  /** Backends in rotation; `down` ones are skipped only after they refuse. */
  backends: Array<{ name: string; url: string }>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startProxy(backends: Array<{ name: string; url: string }>): Promise<TestProxy> {
  let next = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const idempotent = req.method === "GET" || req.method === "HEAD";
    const headers = { ...req.headers };
    const client = typeof headers["x-test-client-ip"] === "string" ? headers["x-test-client-ip"] : "127.0.0.1";
    delete headers["x-test-client-ip"];
    headers["x-forwarded-for"] = client;
    headers["x-forwarded-proto"] = "http";
    const start = next++ % backends.length;
    for (let attempt = 0; attempt < backends.length; attempt++) {
      const backend = backends[(start + attempt) % backends.length];
      if (!backend) break;
      const outcome = await new Promise<"done" | "refused" | "broken">((resolve) => {
        const upstream = httpRequest(
          `${backend.url}${req.url ?? "/"}`,
          { method: req.method, headers, agent: false },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-backend": backend.name });
            answer.pipe(res);
            answer.on("end", () => resolve("done"));
            answer.on("error", () => {
              res.destroy();
              resolve("done");
            });
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (res.headersSent) {
            res.destroy();
            resolve("done");
            return;
          }
          resolve(error.code === "ECONNREFUSED" ? "refused" : "broken");
        });
        upstream.end(body);
      });
      if (outcome === "done") return;
      if (outcome === "broken" && !idempotent) break;
    }
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end("Bad gateway");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    backends,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
