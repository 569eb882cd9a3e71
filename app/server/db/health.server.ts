import type { Logger } from "pino";
import { type DB, pingDatabase } from "./db.server.ts";

/** Seconds a client is asked to wait (Retry-After) while the database is away. */
export const DB_RETRY_AFTER_SECONDS = 5;

/** How often the database is probed while it is down. */
export const DB_PROBE_INTERVAL_MS = 500;

// Node socket errors that mean the database cannot be reached at all.
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"]);
// PostgreSQL SQLSTATEs: connection exceptions (08…), shutdown and start-up (57P01–57P03).
const PG_UNAVAILABLE = /^(08\d{3}|57P0[123])$/;
// node-postgres's own messages for a pool that cannot connect or lost its server.
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;
// SQLite: the file cannot be opened or read (not busy, not a constraint).
const SQLITE_UNAVAILABLE = /^SQLITE_(CANTOPEN|IOERR|NOTADB|CORRUPT)/;

/**
 * Whether an error means "the database is unreachable" (as opposed to a bad
 * query or a constraint): those answer 503 and start probing for its return.
 * Follows `cause` chains (Kysely and better-auth wrap driver errors).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code)) return true;
  }
  if (typeof message === "string" && PG_MESSAGES.test(message)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

export interface DatabaseHealth {
  /** True from the first unreachable-database error until a probe succeeds. */
  isDown(): boolean;
  /** Looks at an error from a request or job; returns true when it means the database is away. */
  noteError(error: unknown): boolean;
  stop(): void;
}

/**
 * Tracks whether the database answers. Normal operation costs nothing: only an
 * error that means "unreachable" marks it down, and then a probe runs every
 * DB_PROBE_INTERVAL_MS until the database answers again, so service resumes on
 * its own within about a second of the database's return.
 */
export function createDatabaseHealth(
  db: DB,
  log: Logger,
  opts: { probeIntervalMs?: number; ping?: () => Promise<boolean> } = {},
): DatabaseHealth {
  const ping = opts.ping ?? (() => pingDatabase(db, 1000));
  const interval = opts.probeIntervalMs ?? DB_PROBE_INTERVAL_MS;
  let down = false;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  let probing = false;

  const probe = async () => {
    if (probing) return;
    probing = true;
    try {
      if (await ping()) {
        down = false;
        clearInterval(timer);
        timer = undefined;
        log.info({ downMs: Date.now() - since }, "database reachable again");
      }
    } finally {
      probing = false;
    }
  };

  return {
    isDown: () => down,
    noteError(error) {
      if (!isDatabaseUnavailable(error)) return false;
      if (!down) {
        down = true;
        since = Date.now();
        log.error({ err: error }, "database unreachable: answering 503 until it is back");
        timer = setInterval(() => void probe(), interval);
        timer.unref();
      }
      return true;
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

/** The page readers get meanwhile: both languages, no database needed, no scripts. */
export const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Briefly unavailable · 暂时无法访问</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.6;color:#1f2937}@media (prefers-color-scheme:dark){body{background:#111827;color:#e5e7eb}}</style>
</head><body><main>
<h1>Briefly unavailable</h1>
<p>The blog cannot reach its database right now. Please try again in a few seconds.</p>
<h1 lang="zh">暂时无法访问</h1>
<p lang="zh">博客暂时无法连接数据库，请过几秒钟再试。</p>
</main></body></html>`;
