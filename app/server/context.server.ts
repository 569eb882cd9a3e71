import type { Logger } from "pino";
import { createContext, type RouterContextProvider } from "react-router";
import type { Auth } from "./auth/auth.server.ts";
import type { RequestEffects } from "./cache/render-cache.server.ts";
import type { DB, Dialect } from "./db/db.server.ts";
import type { DatabaseHealth } from "./db/health.server.ts";
import type { Env } from "./env.server.ts";
import type { Mailer } from "./mail.server.ts";
import type { RateLimitStore } from "./rate-limit.server.ts";
import type { AdImpressions } from "./repos/ads.server.ts";
import type { StorageDriver } from "./storage/types.server.ts";
import type { ViewCounter } from "./views.server.ts";

/** What every loader, action and middleware gets from the server for one request. */
export interface AppContext {
  db: DB;
  dialect: Dialect;
  env: Env;
  log: Logger;
  requestId: string;
  /** The per-request CSP nonce for inline scripts. */
  nonce: string;
  buildId: string;
  auth: Auth;
  mailer: Mailer;
  /** The client's address: the socket's, or the proxy's word when TRUST_PROXY says so. */
  clientIp: string;
  /** Post view counting, batched in memory (one per process). */
  views: ViewCounter;
  /** Ad impression counting, batched in memory (one per process). */
  adImpressions: AdImpressions;
  /** Where uploaded files live: local disk or S3-compatible storage. */
  storage: StorageDriver;
  /** Rate-limit counters every instance shares (database or Redis). */
  rateLimits: RateLimitStore;
  /** Whether the database answers; errors that say it does not are reported here. */
  dbHealth: DatabaseHealth;
  /** What this request's render counted (a view, ad impressions): a cached copy counts them again. */
  effects: RequestEffects;
  /**
   * Set on document requests only (not on `.data` ones): large HTML a loader renders
   * into the page without repeating it in the hydration data (app/components/document-parts.tsx).
   */
  documentParts?: Map<string, string>;
}

export const appContext = createContext<AppContext>();

export function getApp(context: Readonly<RouterContextProvider>): AppContext {
  return context.get(appContext);
}
