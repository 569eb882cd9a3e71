import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import type { Services } from "./boot/context.server.ts";
import { type BootOptions, createServices } from "./boot/services.server.ts";
import { createRenderFlights } from "./cache/render-flights.server.ts";
import type { OpenDatabase } from "./db/db.server.ts";
import { serveCachedPages } from "./http/cached-pages.server.ts";
import { serveCanonicalAddress } from "./http/canonical-address.server.ts";
import { serveFederation } from "./http/federation.server.ts";
import { errorHandler, refuseCrossSite, refuseDeclaredTooLarge, whileDatabaseDown } from "./http/guards.server.ts";
import { healthRoutes } from "./http/health.server.ts";
import { serveRedirects } from "./http/redirects.server.ts";
import { renderWithReactRouter } from "./http/render.server.ts";
import { requestMeta } from "./http/request-meta.server.ts";
import { createRouteMatcher, routeTree } from "./http/route-policies.server.ts";
import { staticFiles } from "./http/static-files.server.ts";
import { serveMedia } from "./media/serve.server.ts";
import { type Env, parseEnv } from "./platform/env.server.ts";

export interface InkwellServer {
  app: express.Express;
  env: Env;
  log: Logger;
  database: OpenDatabase;
  buildId: string;
  /** Writes pending view counts and closes the database; the HTTP server is closed by its owner first. */
  close(): Promise<void>;
}

export interface CreateServerOptions extends BootOptions {
  env?: Env;
  /** Development: Vite serves assets and HMR, and errors show details. */
  dev?: boolean;
  /** Development: mounted before the app (Vite's middlewares). */
  devMiddleware?: express.RequestHandler;
}

const loadBuild = async (): Promise<ServerBuild> =>
  (await import("virtual:react-router/server-build")) as unknown as ServerBuild;

/**
 * Makes the services (app/server/boot), then connects the HTTP layer in order:
 * request meta → redirects → canonical address → compression → cached pages → health → media → static files →
 * database-down → Fediverse → cross-site → body limit → React Router → errors. Each step is
 * its own module in app/server/http; `server.ts` owns the listening socket.
 */
export async function createServer(options: CreateServerOptions = {}): Promise<InkwellServer> {
  const env = options.env ?? parseEnv();
  const dev = options.dev ?? env.nodeEnv === "development";
  const boot = await createServices(env, options);
  const build = await loadBuild();
  const buildId = build.assets.version;
  const services: Services = { ...boot.services, buildId };
  const { log, renderCache, contentVersion } = boot;
  const cache = { renderCache, contentVersion };
  // Readers of a page being rendered wait for that render (one per page at a time).
  const flights = createRenderFlights();

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.trustProxy);
  // Each route's policy (cache, writes, body limit, CSP) as its module declares it.
  const matchRoute = createRouteMatcher(routeTree(build.routes));
  app.use(requestMeta({ env, log, dev, matchRoute }));
  // Old URLs before any page work; health, assets, media and the admin are never redirected
  // (a from-path there is refused on save and skipped on load: lib/redirects.ts).
  app.use(serveRedirects(boot.redirects));
  // One address per page: a trailing slash or a list's /page/1 is sent to the page's address.
  app.use(serveCanonicalAddress());
  app.use(compression({ threshold: 1024 }));
  app.use(serveCachedPages({ env, ...cache, flights, services }));
  app.use(healthRoutes({ db: services.db, storage: services.storage, shared: boot.shared, buildId }));
  app.get("/media/*path", serveMedia(services.storage, log));
  app.use(options.devMiddleware ?? staticFiles(fileURLToPath(new URL("../client", import.meta.url))));
  app.use(whileDatabaseDown(services.dbHealth));
  // Other servers post to the inboxes from their own origin: before the cross-site check.
  app.use(serveFederation({ env, log, federation: boot.federation, rateLimits: boot.shared.rateLimits }));
  app.use(refuseCrossSite(env));
  app.use(refuseDeclaredTooLarge(env));
  app.use(renderWithReactRouter({ build: dev ? loadBuild : build, dev, env, services, cache }));
  app.use(errorHandler(services.dbHealth, log));

  boot.startJobs();
  return { app, env, log, database: boot.database, buildId, close: () => boot.close() };
}
