import type { Logger } from "pino";
import { createContext, type RouterContextProvider } from "react-router";
import type { Locale, LocalePrefix } from "../../lib/i18n/locale.ts";
import type { RoutePolicy } from "../../lib/route-policy.ts";
import type { AuthLoader } from "../accounts/auth-loader.server.ts";
import type { ContentChanges } from "../cache/content-changes.server.ts";
import type { ChangeTags } from "../cache/content-version.server.ts";
import type { RequestEffects } from "../cache/render-cache.server.ts";
import type { CommentRenderer } from "../comments/comment-renderer.server.ts";
import type { DB, Dialect } from "../db/db.server.ts";
import type { DatabaseHealth } from "../db/health.server.ts";
import type { FederationService } from "../federation/service.server.ts";
import type { RateLimitStore } from "../http/rate-limit.server.ts";
import type { CountedRead } from "../http/read-count.server.ts";
import type { UploadChecker } from "../import/upload-check.server.ts";
import type { InsightRecorder } from "../insights/recorder.server.ts";
import type { ViewCounter } from "../insights/views.server.ts";
import type { Mailer } from "../mail/message.server.ts";
import type { Env } from "../platform/env.server.ts";
import type { AdImpressions } from "../site/ads.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";

/** What the process holds for every request: made once at start (app/server/boot/services.server.ts). */
export interface Services {
  db: DB;
  dialect: Dialect;
  env: Env;
  /** The process's logger; a request logs through `RequestState.log` (it carries the request id). */
  log: Logger;
  buildId: string;
  /** better-auth, imported and made on the first call (anonymous readers never load it). */
  auth: AuthLoader;
  mailer: Mailer;
  /** Post view counting, batched in memory (one per process). */
  views: ViewCounter;
  /** Insights recording (page reads, searches, 404s), batched in memory (one per process). */
  insights: InsightRecorder;
  /** Ad impression counting, batched in memory (one per process). */
  adImpressions: AdImpressions;
  /** Where uploaded files live: local disk or S3-compatible storage. */
  storage: StorageDriver;
  /** Rate-limit counters every instance shares (database or Redis). */
  rateLimits: RateLimitStore;
  /** Whether the database answers; errors that say it does not are reported here. */
  dbHealth: DatabaseHealth;
  /** The one call every write that changes what readers see goes through. */
  content: ContentChanges;
  /** Renders comments off the request thread, within a time budget. */
  comments: CommentRenderer;
  /** The subscriber import worker: poked after an upload, so a small file finishes at once. */
  subscriberImports: { poke(): void };
  /** The post import worker: poked when an admin confirms an import. */
  postImports: { poke(): void };
  /** Checks uploads on the admin Import page on a worker thread, one per upload. */
  uploadChecks: UploadChecker;
  /** The Fediverse accounts: their state, the queue and the post sync. */
  federation: FederationService;
}

/** What belongs to one request: worked out once, at its start (app/server/http/request-meta.server.ts). */
export interface RequestState {
  id: string;
  /** The per-request CSP nonce for inline scripts. */
  nonce: string;
  /** The client's address: the socket's, or the proxy's word when TRUST_PROXY says so. */
  clientIp: string;
  /** The language decided for this request (URL prefix → cookie → host → Accept-Language → default). */
  locale: Locale;
  /** "/en", "/zh" or "" (no prefix in the URL): links on the page keep it. */
  prefix: LocalePrefix;
  /** The logger for this request: every line carries its id. */
  log: Logger;
  /** The policy its route declares (cache, writes, body limit, CSP). */
  policy: RoutePolicy;
  /** What this request's render counted (a view, ad impressions): a cached copy counts them again. */
  effects: RequestEffects;
  /**
   * Whether this request counts as a read, and with which referrer: null for a speculative
   * load, a revalidation, a HEAD that is not the reader script's beacon (http/read-count.server.ts).
   */
  read: CountedRead | null;
  /**
   * What this request's write changed, when its action knows it is less than
   * everything (app/server/cache/page-tags.server.ts); unset drops every cached page.
   */
  changes?: ChangeTags;
  /**
   * Set on document requests only (not on `.data` ones): large HTML a loader renders
   * into the page without repeating it in the hydration data (app/components/document-parts.tsx).
   */
  documentParts?: Map<string, string>;
}

export const servicesContext = createContext<Services>();
export const requestContext = createContext<RequestState>();

/** The process's services, for a loader or action. */
export function getApp(context: Readonly<RouterContextProvider>): Services {
  return context.get(servicesContext);
}

/** This request's own state (id, nonce, client address, locale, effects). */
export function getRequest(context: Readonly<RouterContextProvider>): RequestState {
  return context.get(requestContext);
}
