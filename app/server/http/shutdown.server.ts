import type { Server, ServerResponse } from "node:http";

export interface GracefulCloser {
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then resolves. */
  close(): Promise<{ forced: boolean }>;
  readonly stopping: boolean;
}

/**
 * Tracks requests in flight on `server` so a shutdown can finish them: new
 * connections are refused at once, idle keep-alive connections are closed, busy
 * ones are told `Connection: close` and closed after their response; whatever is
 * still open after `graceMs` is cut.
 */
export function trackForShutdown(server: Server, graceMs: number): GracefulCloser {
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on("request", (_req, res: ServerResponse) => {
    if (stopping && !res.headersSent) res.setHeader("Connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
  });

  return {
    get stopping() {
      return stopping;
    },
    close() {
      stopping = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      return new Promise((resolve) => {
        let forced = false;
        const force = setTimeout(() => {
          forced = true;
          server.closeAllConnections();
        }, graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve({ forced });
        });
        server.closeIdleConnections();
      });
    },
  };
}
