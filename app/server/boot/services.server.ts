import path from "node:path";
import { type Logger, pino } from "pino";
import { addAdmins } from "../accounts/admins.server.ts";
import { lazyAuth } from "../accounts/auth-loader.server.ts";
import { userOfHeaders } from "../accounts/session.server.ts";
import { announceSetup } from "../accounts/setup.server.ts";
import { createContentChanges } from "../cache/content-changes.server.ts";
import { type ContentVersionWatch, watchContentVersion } from "../cache/content-version.server.ts";
import { postTag } from "../cache/page-tags.server.ts";
import { createRenderCache, type RenderCache } from "../cache/render-cache.server.ts";
import { workerCommentRenderer } from "../comments/comment-renderer.server.ts";
import { type OpenDatabase, openDatabase } from "../db/db.server.ts";
import { createDatabaseHealth } from "../db/health.server.ts";
import { migrateToLatest } from "../db/migrate.server.ts";
import { startStatisticsRefresh } from "../db/statistics.server.ts";
import {
  createFederationService,
  type FederationService,
  type FederationTestMode,
} from "../federation/service.server.ts";
import { importFoldersInUse } from "../import/job/queue.server.ts";
import { importDeps, startPostImports } from "../import/job/worker.server.ts";
import { workerImportRenderer } from "../import/render-pool.server.ts";
import { workerUploadChecker } from "../import/upload-check.server.ts";
import { pruneUnpacked } from "../import/zip.server.ts";
import { createInsightRecorder } from "../insights/recorder.server.ts";
import { startInsightsRollup } from "../insights/rollup.server.ts";
import { createViewCounter } from "../insights/views.server.ts";
import type { LeasedJob } from "../jobs/lease.server.ts";
import { createMailer } from "../mail/message.server.ts";
import { type MailWorker, startMailWorker } from "../mail/outbox.server.ts";
import { relaxedOutcomeWrites } from "../mail/relaxed-writes.server.ts";
import { createMailTransport } from "../mail/transport.server.ts";
import { startSubscriberImports } from "../newsletter/subscriber-import-job.server.ts";
import { newsletterContext, newsletterOutboxHooks } from "../newsletter/worker.server.ts";
import { startModerationDigest } from "../notify/moderation.server.ts";
import { noticeDeps } from "../notify/notices.server.ts";
import { startScheduledBackups } from "../ops/schedule.server.ts";
import type { Env } from "../platform/env.server.ts";
import { wirePostLifecycle } from "../posts/lifecycle.server.ts";
import { startScheduledPublishing } from "../posts/publish-scheduled.server.ts";
import { createRedirectMap, type RedirectMap } from "../redirects/map.server.ts";
import { createSharedState, type SharedState } from "../shared-state/index.server.ts";
import { createAdImpressions } from "../site/ads.server.ts";
import { startSocialCards } from "../social-cards/sync.server.ts";
import { createStorage } from "../storage/index.server.ts";
import { createLocalStorage, type LocalFileSystem } from "../storage/local.server.ts";
import type { Services } from "./context.server.ts";

/** Everything one process runs on, plus what only the HTTP layer needs and how to stop it all. */
export interface Boot {
  services: Omit<Services, "buildId">;
  database: OpenDatabase;
  log: Logger;
  shared: SharedState;
  renderCache: RenderCache;
  contentVersion: ContentVersionWatch;
  /** This instance's copy of the redirects table and its hit counter (the redirects step). */
  redirects: RedirectMap;
  /** The Fediverse endpoints and deliveries (the federation step). */
  federation: FederationService;
  /** Starts the background jobs (scheduled publishing, backups) on this instance. */
  startJobs(): void;
  /** Stops the jobs, writes pending counts and closes the database and shared state. */
  close(): Promise<void>;
}

export interface BootOptions {
  /**
   * The file system local uploads are written through: the test seam for storage
   * faults (tests/setup/storage-fault-server.ts). Production never passes it.
   */
  localFileSystem?: Partial<LocalFileSystem>;
  /**
   * Federation with loopback peers over plain http: the test seam of
   * tests/setup/federation-server.ts. Production never passes it.
   */
  federationTestMode?: FederationTestMode;
}

/**
 * A worker thread's script. Built, it is one of the server bundle's named entries, next to
 * index.js, which this module is part of; from source (development, tests) Node runs the
 * TypeScript file itself. The names come in as arguments so Vite does not take them for
 * assets to bundle.
 */
function workerUrl(built: string, source: string): URL {
  return new URL(new URL(import.meta.url).pathname.endsWith(".ts") ? source : built, import.meta.url);
}

/** The comment renderer's worker. */
const commentWorkerUrl = () => workerUrl("./comment-worker.js", "../comments/markdown-worker.server.ts");
/** The import render worker (import/render-pool.server.ts). */
const importWorkerUrl = () => workerUrl("./import-worker.js", "../import/render-worker.server.ts");
/** The admin Import upload's check (import/upload-check.server.ts). */
const uploadCheckWorkerUrl = () => workerUrl("./upload-check-worker.js", "../import/upload-check-worker.server.ts");

/**
 * Opens the database (migrating it first), connects the shared state, and makes
 * every per-process service: the boot half of what used to be one `createServer`.
 */
export async function createServices(env: Env, options: BootOptions = {}): Promise<Boot> {
  const log = pino({ level: env.logLevel, base: { app: "inkwell" } });

  const database = openDatabase(env.database);
  const closeDatabase = () => database.close().catch(() => {});
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) log.info({ applied }, "applied database migrations");
  } catch (error) {
    await closeDatabase();
    throw error;
  }
  if (env.adminEmails.length > 0) {
    const added = await addAdmins(database.db, env.adminEmails, "env");
    if (added.length > 0) log.info({ added }, "added admins from ADMIN_EMAILS");
  }

  let shared: SharedState;
  try {
    shared = await createSharedState(env, database.db, log);
  } catch (error) {
    await closeDatabase();
    throw new Error(
      `could not connect to Redis (REDIS_URL): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (shared.kind === "redis") {
    log.info("sessions, rate limits, the content version and the federation store and queue are kept in Redis");
  }

  // Marked down by the first "unreachable" error; requests then get 503 until a probe succeeds.
  const dbHealth = createDatabaseHealth(database.db, log);
  // Rendered pages for anonymous readers; dropped whenever any instance changes content.
  const renderCache = createRenderCache(env.renderCache.maxBytes);
  // Old URLs, read into memory once and again after any instance changes them.
  const redirects = createRedirectMap(database.db, {
    onError: (error, what) =>
      log.warn(
        { err: error },
        what === "load" ? "could not read the redirects" : "could not write redirect hits; will retry",
      ),
  });
  let cardJob: LeasedJob | null = null;
  // Posts federate from a sync that runs after every content change (here or on another instance).
  const federation = createFederationService({
    db: database.db,
    env,
    log,
    ...(options.federationTestMode ? { testMode: options.federationTestMode } : {}),
    redis: shared.redis,
    // Called from the queue worker, long after boot: `content` exists by then.
    onPostChanged: (postId) => content.changed([postTag(postId)]),
  });
  const content = createContentChanges({
    db: database.db,
    renderCache,
    version: shared.contentVersion,
    log,
    alsoForget: (tags) => {
      redirects.forget(tags);
      federation.poke();
      // A new title, cover or brand may need new social cards (the job compares, then draws).
      cardJob?.poke();
    },
  });
  // Every change of a post's life (posts/lifecycle.server.ts) drops the pages it touched and
  // wakes the Fediverse sync, whichever route, job or import made it.
  wirePostLifecycle(database.db, { content, federation });
  const contentVersion = watchContentVersion(shared.contentVersion, {
    onChange: (_version, tags) => content.forgetLocal(tags),
    onError: (error) => log.warn({ err: error }, "could not read the content version"),
  });

  // Every mail is queued in the outbox; the worker (a job, below) sends it.
  const transport = createMailTransport(env, log);
  let mailWorker: MailWorker | null = null;
  const mailer = createMailer(database.db, { target: transport.target, onQueued: () => mailWorker?.poke() });
  // Made on first use (a session cookie, /api/auth/*, a sign-in form): not for anonymous readers.
  const auth = lazyAuth({
    db: database.db,
    env,
    mailer,
    log,
    secondaryStorage: shared.authStorage,
    // A renamed or deleted account shows on cached pages (comments, author lines).
    onUserChanged: () => content.changed(),
    rateLimits: shared.rateLimits,
  });
  await announceSetup(database.db, env, log);
  const views = createViewCounter(database.db, {
    onError: (error) => log.warn({ err: error }, "could not write view counts; will retry"),
  });
  const insights = createInsightRecorder(database.db, {
    publicUrl: env.publicUrl,
    isAdmin: async (cookie) =>
      (await userOfHeaders({ auth, db: database.db }, new Headers({ cookie })))?.isAdmin ?? false,
    onError: (error) => log.warn({ err: error }, "could not write insights; will retry"),
  });
  const adImpressions = createAdImpressions(database.db, {
    onError: (error) => log.warn({ err: error }, "could not write ad impressions; will retry"),
  });
  const storage =
    options.localFileSystem && env.storage.driver === "local"
      ? createLocalStorage(env.storage.root, { fs: options.localFileSystem, retry: env.storageRetry })
      : await createStorage(env.storage, env.storageRetry);

  const comments = workerCommentRenderer({ url: commentWorkerUrl(), log });
  // Started with an import's first post and gone after a while without one.
  const importRenderer = workerImportRenderer({ url: importWorkerUrl(), log });
  // A worker thread per upload on the admin Import page: unpacking and parsing stay off this thread.
  const uploadChecks = workerUploadChecker({ url: uploadCheckWorkerUrl(), log });

  const jobs: Array<{ stop(): Promise<void> }> = [];
  let importJob: LeasedJob | null = null;
  let postImportJob: LeasedJob | null = null;
  return {
    services: {
      db: database.db,
      dialect: database.dialect,
      env,
      log,
      auth,
      mailer,
      views,
      insights,
      adImpressions,
      storage,
      rateLimits: shared.rateLimits,
      dbHealth,
      content,
      comments,
      // On an instance that is not the lease holder the poke only finds the lease taken;
      // the holder's own timer picks the import up within IMPORT_INTERVAL_MS.
      subscriberImports: { poke: () => importJob?.poke() },
      postImports: { poke: () => postImportJob?.poke() },
      uploadChecks,
      federation,
    },
    database,
    log,
    shared,
    renderCache,
    contentVersion,
    redirects,
    federation,
    startJobs() {
      // Fediverse deliveries and incoming activities (the durable queue) and the post sync,
      // each on the holder of its lease.
      federation.start();
      // Queued mail goes out on the holder of the mail lease, at MAIL_RATE_PER_MINUTE.
      // Newsletter sends are queued by the same worker, a batch of recipients at a time;
      // outcomes are written without waiting for the disk (relaxed-writes.server.ts).
      mailWorker = startMailWorker(database.db, transport, log, {
        ratePerMinute: env.mailRatePerMinute,
        hooks: newsletterOutboxHooks(database.db, newsletterContext(env)),
        writeOutcome: relaxedOutcomeWrites(database.db, database.dialect),
      });
      jobs.push(mailWorker);
      // Scheduled posts go live within one interval of their time, on the lease holder only
      // (the post lifecycle drops the cached pages and nudges the Fediverse sync).
      jobs.push(startScheduledPublishing(database.db, log, { intervalMs: env.schedulerIntervalMs }));
      // Uploaded subscriber lists, a chunk per transaction, on the holder of the import lease.
      importJob = startSubscriberImports(database.db, log);
      jobs.push(importJob);
      // Post imports (the CLI's import:markdown queues them), a chunk per transaction, on the lease holder.
      postImportJob = startPostImports(importDeps(database.db, storage, env.uploadMaxBytes, log, importRenderer), log, {
        onWritten: () => content.changed(),
        // Zips uploaded on the Import page are unpacked under DATA_DIR/imports until their import ends.
        onDone: async () => {
          // Ten minutes' grace: a CLI dry run may be reading a folder no import names.
          await pruneUnpacked(path.join(env.dataDir, "imports"), await importFoldersInUse(database.db), 10 * 60_000);
        },
      });
      jobs.push(postImportJob);
      // Each live post's social cards, drawn on the holder of the lease after a change. Pages
      // name a card by a fixed address (routes/seo/social-card.ts): a drawing drops no page.
      cardJob = startSocialCards({ db: database.db, storage, log });
      jobs.push(cardJob);
      // The daily digest of comments waiting, while the site setting asks for one.
      jobs.push(startModerationDigest(database.db, noticeDeps({ mailer, env }), log));
      // Insights: each finished day's visitors counted, its hashes and salt deleted, old rows pruned.
      jobs.push(startInsightsRollup(database.db, log, { retentionDays: env.insights.retentionDays }));
      // PostgreSQL: tables never analysed (a fresh import) or much changed get their statistics.
      const statistics = startStatisticsRefresh(database, log);
      if (statistics) jobs.push(statistics);
      // BACKUP_CRON: on the holder of the backup lease only.
      if (env.backup.schedule) {
        jobs.push(
          startScheduledBackups({ database: env.database, storage, dataDir: env.dataDir }, database, log, {
            schedule: env.backup.schedule,
            dir: env.backup.dir,
            keep: env.backup.keep,
          }),
        );
      }
    },
    async close() {
      await comments.close();
      await contentVersion.stop();
      await views.stop();
      await insights.stop();
      await adImpressions.stop();
      await redirects.stop();
      for (const job of jobs) await job.stop();
      await importRenderer.close();
      await federation.stop();
      dbHealth.stop();
      await shared.close().catch(() => {});
      await database.close();
    },
  };
}
