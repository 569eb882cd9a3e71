import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { type Logger, pino } from "pino";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { type Locale, localeFromRequest, resolveLocale } from "../lib/i18n/locale.ts";
import { isSolanaPath, rpcFromCookie, solanaConnectSources, walletConnectSources } from "../lib/solana/network.ts";
import { CLIENT_IP_HEADER, createAuth } from "./auth/auth.server.ts";
import { announceSetup } from "./auth/setup.server.ts";
import { watchContentVersion } from "./cache/content-version.server.ts";
import {
  changesContent,
  PRIVATE_CACHE_CONTROL,
  PUBLIC_PAGE_CACHE_CONTROL,
  sendPage,
} from "./cache/page-cache.server.ts";
import {
  AD_PAGE_TTL_MS,
  createRenderCache,
  isAnonymous,
  isPublicPage,
  joinWithNonce,
  newEffects,
  strongEtag,
  withoutNonce,
} from "./cache/render-cache.server.ts";
import { appContext } from "./context.server.ts";
import { type OpenDatabase, openDatabase, pingDatabase } from "./db/db.server.ts";
import { createDatabaseHealth, DB_RETRY_AFTER_SECONDS, UNAVAILABLE_PAGE } from "./db/health.server.ts";
import { migrateToLatest } from "./db/migrate.server.ts";
import { type Env, parseEnv } from "./env.server.ts";
import { sendFetchResponse, toFetchRequest } from "./http/adapter.server.ts";
import { precompressedAssets } from "./http/assets.server.ts";
import { startScheduledPublishing } from "./jobs/publish-scheduled.server.ts";
import { createMailer } from "./mail.server.ts";
import { serveMedia } from "./media/serve.server.ts";
import { startScheduledBackups } from "./ops/schedule.server.ts";
import { forgetPostCounts } from "./post-counts.server.ts";
import { addAdmins } from "./repos/admins.server.ts";
import { createAdImpressions } from "./repos/ads.server.ts";
import { withRequestLocale } from "./request-locale.server.ts";
import { isCrossSiteWrite, newNonce, securityHeaders } from "./security.server.ts";
import { createSharedState, type SharedState } from "./shared-state/index.server.ts";
import { faultyFileSystem } from "./storage/faults.server.ts";
import { createStorage } from "./storage/index.server.ts";
import { createLocalStorage } from "./storage/local.server.ts";
import { createViewCounter } from "./views.server.ts";

export const APP_VERSION: string = process.env.npm_package_version ?? "0.1.0";

export interface InkwellServer {
  app: express.Express;
  env: Env;
  log: Logger;
  database: OpenDatabase;
  buildId: string;
  /** Writes pending view counts and closes the database; the HTTP server is closed by its owner first. */
  close(): Promise<void>;
}

/** What the render cache worked out for a request, for the handler that renders on a miss. */
interface PageLookup {
  locale: Locale;
  key: string;
  version: number;
  useCache: boolean;
}

export interface CreateServerOptions {
  env?: Env;
  /** Development: Vite serves assets and HMR, and errors show details. */
  dev?: boolean;
  /** Development: mounted before the app (Vite's middlewares). */
  devMiddleware?: express.RequestHandler;
}

const loadBuild = async (): Promise<ServerBuild> =>
  (await import("virtual:react-router/server-build")) as unknown as ServerBuild;

/** The client's address: the socket's, or the proxy's word when TRUST_PROXY says so (Express's req.ip). */
function clientIpOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** "favicon.svg" for "/favicon.svg", "media" for "/media/a/b": the name a path starts with, decoded. */
function firstSegment(pathname: string): string {
  const raw = pathname.slice(1).split("/", 1)[0] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function requestId(req: Request, trustProxy: boolean | number): string {
  const given = req.get("x-request-id");
  if (trustProxy && given && /^[\w.-]{1,64}$/.test(given)) return given;
  return randomUUID();
}

/**
 * Parses the environment, opens the database, applies migrations and returns the
 * Express app that serves the blog. `server.ts` owns the listening socket.
 */
export async function createServer(options: CreateServerOptions = {}): Promise<InkwellServer> {
  const env = options.env ?? parseEnv();
  const dev = options.dev ?? env.nodeEnv === "development";
  const log = pino({ level: env.logLevel, base: { app: "inkwell" } });

  const database = openDatabase(env.database);
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) log.info({ applied }, "applied database migrations");
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }

  if (env.adminEmails.length > 0) {
    const added = await addAdmins(database.db, env.adminEmails, "env");
    if (added.length > 0) log.info({ added }, "added admins from ADMIN_EMAILS");
  }
  // Marked down by the first "unreachable" error; requests then get 503 until a probe succeeds.
  const dbHealth = createDatabaseHealth(database.db, log);
  let shared: SharedState;
  try {
    shared = await createSharedState(env, database.db, log);
  } catch (error) {
    await database.close().catch(() => {});
    throw new Error(
      `could not connect to Redis (REDIS_URL): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (shared.kind === "redis") log.info("sessions, rate limits and the content version are kept in Redis");
  const mailer = createMailer(env, log);
  const auth = createAuth({ db: database.db, env, mailer, log, secondaryStorage: shared.authStorage });
  await announceSetup(database.db, env, log);
  const views = createViewCounter(database.db, {
    onError: (error) => log.warn({ err: error }, "could not write view counts; will retry"),
  });
  const adImpressions = createAdImpressions(database.db, {
    onError: (error) => log.warn({ err: error }, "could not write ad impressions; will retry"),
  });

  // Rendered pages for anonymous readers; dropped whenever any instance changes content.
  const renderCache = createRenderCache(env.renderCache.maxBytes);
  const contentVersion = watchContentVersion(shared.contentVersion, {
    onChange: () => {
      renderCache.clear();
      forgetPostCounts(database.db);
    },
    onError: (error) => log.warn({ err: error }, "could not read the content version"),
  });

  const storage =
    env.testStorageFault && env.storage.driver === "local"
      ? createLocalStorage(env.storage.root, {
          fs: faultyFileSystem(env.testStorageFault),
          retry: env.storageRetry,
        })
      : await createStorage(env.storage, env.storageRetry);

  const build = await loadBuild();
  const buildId = build.assets.version;
  const handle = createRequestHandler(dev ? loadBuild : build, dev ? "development" : "production");
  const https = env.publicUrl.startsWith("https://");

  const walletConnect = walletConnectSources(env.walletConnectProjectId, env.walletConnectRelayUrl);
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.trustProxy);

  // Request id, security headers and the request log come first, for every response.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const id = requestId(req, env.trustProxy);
    const nonce = newNonce();
    res.locals.requestId = id;
    res.locals.nonce = nonce;
    res.setHeader("X-Request-Id", id);
    // The /solana pages talk to a Solana RPC (another origin): only they get it in connect-src.
    // With WalletConnect on, they may also open its relay's socket and its Verify frame (any
    // /solana page: the WalletConnect page is reached by client-side navigation too).
    const solana = isSolanaPath(req.path);
    const connectExtra = solana
      ? [
          ...solanaConnectSources(env.solanaRpcUrl, rpcFromCookie(req.headers.cookie)),
          ...(walletConnect ? walletConnect.connect : []),
        ]
      : [];
    const frameExtra = solana && walletConnect ? walletConnect.frame : [];
    for (const [name, value] of Object.entries(securityHeaders(nonce, { dev, https, connectExtra, frameExtra }))) {
      res.setHeader(name, value);
    }
    if (env.logRequests) {
      const started = process.hrtime.bigint();
      res.on("finish", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info(
          { reqId: id, method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          "request",
        );
      });
    }
    next();
  });

  app.use(compression({ threshold: 1024 }));

  // Anonymous readers' pages straight from memory, before any other work. Only
  // public page requests pay for the lookup; everything else passes straight on.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const publicPage =
      (req.method === "GET" || req.method === "HEAD") && isPublicPage(req.path) && isAnonymous(req.get("cookie"));
    if (!publicPage) return next();
    const locale = resolveLocale({
      pathname: req.path,
      cookie: req.get("cookie") ?? null,
      host: req.get("host") ?? "",
      acceptLanguage: req.get("accept-language") ?? null,
    });
    const key = `${locale}|${req.get("host") ?? ""}|${req.originalUrl}`;
    const version = contentVersion.current();
    const useCache = env.renderCache.enabled && version > 0;
    res.locals.page = { locale, key, version, useCache } satisfies PageLookup;
    const hit = useCache ? renderCache.get(key, version) : null;
    if (!hit) return next();
    // The render's counting happens on every read, cached or not.
    if (req.method === "GET") {
      const userAgent = req.get("user-agent") ?? null;
      if (hit.effects.viewedPost) views.record(hit.effects.viewedPost, { ip: clientIpOf(req), userAgent });
      for (const ad of hit.effects.ads) adImpressions.record(ad, userAgent);
    }
    sendPage(req, res, { ...hit, body: joinWithNonce(hit.parts, res.locals.nonce as string) }, "hit");
  });

  app.get("/healthz", async (_req: Request, res: Response) => {
    const ok = await pingDatabase(database.db);
    res.setHeader("Cache-Control", "no-store");
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? "ok" : "unavailable", db: ok ? "ok" : "down", version: APP_VERSION, buildId });
  });

  // Readiness for a load balancer: the database and the file store answer, and this
  // instance applied (or found applied) every migration before it started serving.
  app.get("/readyz", async (_req: Request, res: Response) => {
    const within2s = (check: Promise<boolean>) =>
      Promise.race([
        check.catch(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
      ]);
    const [db, files, sharedOk] = await Promise.all([
      pingDatabase(database.db),
      within2s(storage.ping()),
      within2s(shared.ping()),
    ]);
    const ready = db && files && sharedOk;
    res.setHeader("Cache-Control", "no-store");
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "unavailable",
      db: db ? "ok" : "down",
      storage: files ? "ok" : "down",
      ...(shared.kind === "redis" ? { redis: sharedOk ? "ok" : "down" } : {}),
      migrations: "ok",
      version: APP_VERSION,
      buildId,
    });
  });

  // Stale-build detection: the client polls the latest id; a newer one makes its next
  // navigation a full page load.
  app.get("/builds/latest.json", (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ buildId });
  });
  app.get("/builds/meta/:file", (req: Request, res: Response) => {
    const file = String(req.params.file);
    if (file !== `${buildId}.json`) {
      res.setHeader("Cache-Control", "no-store");
      res.status(404).json({ error: "unknown build" });
      return;
    }
    // A build's metadata never changes under its id.
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.json({ buildId, version: APP_VERSION });
  });

  app.get("/media/*path", serveMedia(storage, log));

  if (options.devMiddleware) {
    app.use(options.devMiddleware);
  } else {
    const clientDir = fileURLToPath(new URL("../client", import.meta.url));
    app.use("/assets", precompressedAssets(`${clientDir}/assets`));
    app.use(
      "/assets",
      express.static(`${clientDir}/assets`, { immutable: true, maxAge: "1y", index: false, fallthrough: true }),
    );
    // The other files of the build (favicon, social image) by name: a page request never
    // pays for a file-system lookup (and the error object a miss costs in `send`).
    const serveFile = express.static(clientDir, { maxAge: "1h", index: false });
    const topLevel = new Set(readdirSync(clientDir).filter((name) => name !== "assets"));
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (topLevel.has(firstSegment(req.path))) serveFile(req, res, next);
      else next();
    });
  }

  // While the database is away, pages answer 503 with Retry-After instead of failing
  // one by one (the render cache above still serves what it holds).
  const sendUnavailable = (req: Request, res: Response): void => {
    res.setHeader("Retry-After", String(DB_RETRY_AFTER_SECONDS));
    res.setHeader("Cache-Control", "no-store");
    if (req.path.startsWith("/api/") || req.path.endsWith(".data")) {
      res.status(503).json({ code: "unavailable", error: "The database is unavailable; try again shortly." });
    } else {
      res.status(503).type("html").send(UNAVAILABLE_PAGE);
    }
  };
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (dbHealth.isDown()) sendUnavailable(req, res);
    else next();
  });

  // Cross-site form posts and fetches never reach an action (better-auth checks its own).
  app.use((req: Request, res: Response, next: NextFunction) => {
    const crossSite =
      !req.path.startsWith("/api/auth/") &&
      isCrossSiteWrite({
        method: req.method,
        origin: req.get("origin"),
        secFetchSite: req.get("sec-fetch-site"),
        selfOrigin: `${req.protocol}://${req.get("host") ?? ""}`,
        publicUrl: env.publicUrl,
      });
    if (!crossSite) return next();
    log.warn(
      { reqId: res.locals.requestId, url: req.originalUrl, origin: req.get("origin") },
      "cross-site write refused",
    );
    // JSON endpoints answer in JSON, with the same code they use themselves.
    if (req.path.startsWith("/api/")) {
      res.status(403).json({ code: "cross_origin", error: "Cross-origin request refused." });
    } else {
      res.status(403).type("text/plain").send("Cross-site request refused");
    }
  });

  const sendTooLarge = (req: Request, res: Response): void => {
    res.setHeader("Connection", "close");
    if (req.path.startsWith("/api/")) {
      res.status(413).json({ code: "too-large", error: "The request body is too large." });
    } else {
      res.status(413).type("text/plain").send("Request body too large");
    }
  };

  // Uploads have their own limit (UPLOAD_MAX_BYTES, plus room for the multipart framing).
  const bodyLimitFor = (path: string): number =>
    path === "/api/uploads" ? env.uploadMaxBytes + 64 * 1024 : env.bodyLimitBytes;

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const bodyLimit = bodyLimitFor(req.path);
    const declared = Number(req.get("content-length") ?? 0);
    if (declared > bodyLimit) {
      // Answer at once and drop the connection rather than read the body.
      sendTooLarge(req, res);
      return;
    }
    try {
      const nonce = res.locals.nonce as string;
      // Set by the render cache's lookup for public pages only.
      const page = res.locals.page as PageLookup | undefined;
      const clientIp = clientIpOf(req);
      const { request, body } = toFetchRequest(req, res, {
        bodyLimit,
        clientIpHeader: CLIENT_IP_HEADER,
      });
      const context = new RouterContextProvider();
      context.set(appContext, {
        db: database.db,
        dialect: database.dialect,
        env,
        log: log.child({ reqId: res.locals.requestId as string }),
        requestId: res.locals.requestId as string,
        nonce: res.locals.nonce as string,
        buildId,
        auth,
        mailer,
        clientIp,
        views,
        adImpressions,
        storage,
        rateLimits: shared.rateLimits,
        dbHealth,
        effects: newEffects(),
        ...(req.path.endsWith(".data") ? {} : { documentParts: new Map<string, string>() }),
      });
      const response = await withRequestLocale(page?.locale ?? localeFromRequest(request), () =>
        handle(request, context),
      );
      if (body.tooLarge) {
        await response.body?.cancel();
        if (!res.headersSent) sendTooLarge(req, res);
        return;
      }
      // A loader or action failed because the database is away (entry.server's
      // handleError reported it): the reader gets 503 and Retry-After, not a 500.
      if (response.status >= 500 && dbHealth.isDown()) {
        await response.body?.cancel();
        sendUnavailable(req, res);
        return;
      }
      const contentType = response.headers.get("content-type") ?? "";
      if (
        page &&
        response.status === 200 &&
        response.headers.getSetCookie().length === 0 &&
        !/no-store|private/.test(response.headers.get("cache-control") ?? "")
      ) {
        const raw = Buffer.from(await response.arrayBuffer());
        const stored = withoutNonce(raw, nonce);
        const etag = response.headers.get("etag") ?? strongEtag(stored);
        const cacheControl = response.headers.get("cache-control") ?? PUBLIC_PAGE_CACHE_CONTROL;
        const effects = context.get(appContext).effects;
        // A HEAD's render has no body to keep: only GETs fill the cache.
        if (page.useCache && req.method === "GET" && contentVersion.current() === page.version) {
          renderCache.set(page.key, {
            status: 200,
            body: stored,
            contentType,
            etag,
            cacheControl,
            effects,
            version: page.version,
            expiresAt: effects.ads.length > 0 ? Date.now() + AD_PAGE_TTL_MS : Number.POSITIVE_INFINITY,
          });
        }
        sendPage(req, res, { status: 200, body: raw, contentType, etag, cacheControl }, page.useCache ? "miss" : "off");
        return;
      }
      // Only signed-in writers can change what readers see (comments, the admin area):
      // anonymous posts (sign-up, subscribe, contact) never empty the cache.
      if (response.status < 400 && !isAnonymous(req.get("cookie")) && changesContent(req.method, req.path)) {
        // Before answering: the writer's next page must not come from a stale cache.
        renderCache.clear();
        forgetPostCounts(database.db);
        try {
          await shared.contentVersion.bump();
        } catch (error) {
          // The write itself succeeded; other instances catch up at the next bump.
          log.warn({ err: error, reqId: res.locals.requestId }, "could not bump the content version");
        }
      }
      if (!page && !response.headers.has("cache-control")) {
        res.setHeader("Cache-Control", isAnonymous(req.get("cookie")) ? "no-cache" : PRIVATE_CACHE_CONTROL);
      }
      await sendFetchResponse(res, response);
    } catch (error) {
      next(error);
    }
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const unavailable = dbHealth.noteError(error);
    if (!unavailable) {
      log.error({ err: error, reqId: res.locals.requestId, url: req.originalUrl }, "unhandled request error");
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (unavailable) sendUnavailable(req, res);
    else res.status(500).type("text/plain").send("Internal server error");
  });

  // Scheduled posts go live within one interval of their time, on the lease holder only.
  const publisher = startScheduledPublishing(database.db, log, {
    intervalMs: env.schedulerIntervalMs,
    onPublished: () => shared.contentVersion.bump(),
  });
  // BACKUP_CRON: on the holder of the backup lease only.
  const backups = env.backup.schedule
    ? startScheduledBackups({ database: env.database, storage, dataDir: env.dataDir }, database, log, {
        schedule: env.backup.schedule,
        dir: env.backup.dir,
        keep: env.backup.keep,
      })
    : null;

  return {
    app,
    env,
    log,
    database,
    buildId,
    close: async () => {
      await contentVersion.stop();
      await views.stop();
      await adImpressions.stop();
      await publisher.stop();
      await backups?.stop();
      dbHealth.stop();
      await shared.close().catch(() => {});
      await database.close();
    },
  };
}
