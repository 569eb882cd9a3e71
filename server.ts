// The production (and development) HTTP server: owns the socket, timeouts and
// graceful shutdown. The app itself is built by Vite from app/server/app.server.ts.
// The build also bundles this file as build/server/serve.js (vite.config.ts): that is
// what `npm start` (scripts/start.js), the tests and the benches run, so production
// loads no TypeScript. `--dev` runs this source with Vite.
import { createServer as createHttpServer, type Server } from "node:http";
import type { CreateServerOptions, InkwellServer } from "./app/server/app.server.ts";
import { trackForShutdown } from "./app/server/http/shutdown.server.ts";

type CreateServer = (options?: CreateServerOptions) => Promise<InkwellServer>;

const SHUTDOWN_GRACE_MS = 8_000;

/** The app's build, seen from this file: bundled next to it, or from the repository root. */
const APP_BUILD = import.meta.url.endsWith("/build/server/serve.js") ? "./index.js" : "./build/server/index.js";

async function loadApp(dev: boolean, options: CreateServerOptions): Promise<InkwellServer> {
  if (!dev) {
    const buildEntry = new URL(APP_BUILD, import.meta.url).href;
    const mod = (await import(buildEntry)) as { createServer: CreateServer };
    return mod.createServer(options);
  }
  const { createServer: createVite } = await import("vite");
  const vite = await createVite({ server: { middlewareMode: true }, appType: "custom" });
  const mod = (await vite.ssrLoadModule("./app/server/app.server.ts")) as { createServer: CreateServer };
  const server = await mod.createServer({ ...options, dev: true, devMiddleware: vite.middlewares });
  const close = server.close;
  server.close = async () => {
    await vite.close();
    await close();
  };
  return server;
}

/** Starts the blog; `options` are for test entry points (tests/setup), never set in production. */
export async function start(options: CreateServerOptions = {}): Promise<{ http: Server; app: InkwellServer }> {
  const dev = process.argv.includes("--dev") || process.env.NODE_ENV === "development";
  let inkwell: InkwellServer;
  try {
    inkwell = await loadApp(dev, options);
  } catch (error) {
    // Configuration and migration errors: one clear line, no stack.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`inkwell: cannot start: ${message}`);
    process.exit(1);
  }
  const { env, log } = inkwell;

  const http = createHttpServer(inkwell.app);
  http.headersTimeout = 15_000;
  http.requestTimeout = 60_000;
  // Longer than clients and load balancers keep idle connections (commonly 60 s), so a
  // client never reuses a socket the server is closing at that moment (ECONNRESET).
  // Idle sockets are cheap; header and request timeouts still bound slow clients.
  http.keepAliveTimeout = 65_000;
  http.maxHeadersCount = 100;

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(env.port, env.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  log.info({ port, host: env.host, db: env.database.dialect, buildId: inkwell.buildId }, "inkwell is listening");
  console.log(`Inkwell is serving ${env.publicUrl.replace(`:${env.port}`, `:${port}`)}`);

  const closer = trackForShutdown(http, SHUTDOWN_GRACE_MS);
  const shutdown = async (signal: string) => {
    if (closer.stopping) return;
    log.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
    const { forced } = await closer.close();
    if (forced) log.warn("in-flight requests did not finish in time; their connections were cut");
    try {
      await inkwell.close();
    } catch (error) {
      log.error({ err: error }, "error while closing the database");
    }
    log.info("stopped");
    log.flush?.();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  return { http, app: inkwell };
}

if (import.meta.main) {
  await start();
}
