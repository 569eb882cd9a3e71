import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_RELAY_URL, parseRelayUrl } from "../../lib/solana/network.ts";

/**
 * The process environment, parsed once at start. Every variable is documented in
 * `.env.example`; an invalid value stops start-up with one line naming it.
 */
const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off", ""])
  .transform((v) => v === "true" || v === "1" || v === "yes" || v === "on");

const trustProxy = z
  .string()
  .regex(/^(true|false|\d{1,2})$/, "must be true, false or a number of proxy hops")
  .transform((v): boolean | number => (v === "true" ? true : v === "false" ? false : Number(v)));

const schema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), "must start with http:// or https://")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().min(1).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: trustProxy.default(false),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  LOG_REQUESTS: booleanish.default(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).optional(),
  /** How many mails the outbox worker sends a minute, at most. */
  MAIL_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  ADMIN_EMAILS: z.string().max(10_000).optional(),
  /** Multiplies every rate limit; for test environments where one address does everything. */
  RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(1000).default(1),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(128).default(8),
  PASSWORD_REQUIRE: z
    .string()
    .regex(
      /^\s*(lower|upper|digit|symbol)(\s*,\s*(lower|upper|digit|symbol))*\s*$/,
      "must list lower, upper, digit or symbol, comma-separated",
    )
    .optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  TWITTER_CLIENT_ID: z.string().optional(),
  TWITTER_CLIENT_SECRET: z.string().optional(),
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  /** One size limit for every upload, enforced while the body streams. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  /** How long storage operations, and uploads, keep retrying a storage that fails (spec: 2 and 10 minutes). */
  STORAGE_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  STORAGE_UPLOAD_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "must be a valid bucket name (3–63 lower-case letters, digits, dots, dashes)",
    )
    .optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Optional: a CDN or public bucket address that serves the bucket's objects. */
  S3_PUBLIC_URL: z.string().url().optional(),
  /** Optional: a key prefix inside the bucket (e.g. "inkwell/"). */
  S3_PREFIX: z
    .string()
    .regex(/^([a-zA-Z0-9_-]+\/)*$/, "must be folder names each ending in /")
    .optional(),
  /** Keep anonymous readers' pages in memory until content changes (off: every request renders). */
  RENDER_CACHE: booleanish.default(true),
  /** The render cache's size bound, in MiB. */
  RENDER_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(32),
  /** Optional: Redis for sessions, rate-limit counters and the content version (several instances). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s]+$/, "must be a redis:// or rediss:// URL")
    .optional(),
  /** A key prefix in Redis, so several sites can share one server. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, "must be 1–64 letters, digits, _ . : -")
    .default("inkwell:"),
  /** How many instances serve this site (behind one proxy); more than 1 needs shared storage. */
  INSTANCE_COUNT: z.coerce.number().int().min(1).max(1000).default(1),
  /** How often scheduled jobs (publishing scheduled posts) run, in ms. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(15_000),
  /** Insights: how many days searches and 404 paths (what readers typed) are kept. */
  INSIGHTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Insights: the header a reverse proxy puts the reader's country in (CF-IPCountry); unset: no countries. */
  INSIGHTS_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "must be a header name")
    .optional(),
  /** Scheduled backups: a daily UTC time "HH:MM" or an interval "30m", "6h", "1d"; unset: none. */
  BACKUP_CRON: z
    .string()
    .refine((v) => parseBackupSchedule(v) !== null, 'must be a daily UTC time "HH:MM" or an interval such as 6h')
    .optional(),
  /** How many scheduled backups to keep (the newest). */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** Where scheduled backups go; default DATA_DIR/backups. */
  BACKUP_DIR: z.string().min(1).optional(),
  /** The Solana RPC the /solana pages use by default (readers may pick another in the page). */
  SOLANA_RPC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), "must start with http:// or https://")
    .default("https://api.mainnet-beta.solana.com"),
  /** Optional: a WalletConnect (Reown) project id; unset hides WalletConnect on /solana/WalletConnect. */
  WALLETCONNECT_PROJECT_ID: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, "must be 8–64 letters or digits")
    .optional(),
  /** The WalletConnect relay the /solana/WalletConnect page pairs through (ws:// or wss://, no credentials). */
  WALLETCONNECT_RELAY_URL: z
    .string()
    .url()
    .refine((v) => parseRelayUrl(v) !== null, "must be a ws:// or wss:// URL without credentials")
    .default(DEFAULT_RELAY_URL),
  /** Federation (issue 22): "on" or "off" overrides the admin switch; unset: the switch decides. */
  FEDERATION: z.enum(["on", "off"]).optional(),
  /** Activities one remote server may post to the inboxes per minute (counted once verified); 429 past it. */
  FEDERATION_INBOX_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(300),
  /** Inbox POSTs one client address may send per minute, before any signature is checked. */
  FEDERATION_INBOX_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  /** Inbox POSTs the site takes per minute from everyone together, before any signature is checked. */
  FEDERATION_INBOX_TOTAL_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
  /** Tests only: a generic OpenID Connect provider (discovery URL, id, secret). */
  OIDC_TEST_DISCOVERY_URL: z.string().url().optional(),
  OIDC_TEST_CLIENT_ID: z.string().optional(),
  OIDC_TEST_CLIENT_SECRET: z.string().optional(),
});

export type OAuthProviderId = "google" | "github" | "twitter";

export type DatabaseConfig = { dialect: "sqlite"; file: string } | { dialect: "postgres"; connectionString: string };

export interface Env {
  nodeEnv: "production" | "development" | "test";
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  authSecret: string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  trustProxy: boolean | number;
  bodyLimitBytes: number;
  logRequests: boolean;
  smtpUrl: string | null;
  mailFrom: string;
  mailRatePerMinute: number;
  adminEmails: string[];
  passwordMinLength: number;
  passwordRequiredClasses: Array<"lower" | "upper" | "digit" | "symbol">;
  rateLimitMultiplier: number;
  oauth: Partial<Record<OAuthProviderId, { clientId: string; clientSecret: string }>>;
  oidcTest: { discoveryUrl: string; clientId: string; clientSecret: string } | null;
  storage: StorageConfig;
  /** Retry deadlines for storage operations and uploads (STORAGE_RETRY_SECONDS, STORAGE_UPLOAD_RETRY_SECONDS). */
  storageRetry: { deadlineMs: number; uploadDeadlineMs: number };
  uploadMaxBytes: number;
  solanaRpcUrl: string;
  walletConnectProjectId: string | null;
  /** The WalletConnect relay (normalised ws:// or wss:// URL). */
  walletConnectRelayUrl: string;
  renderCache: { enabled: boolean; maxBytes: number };
  instanceCount: number;
  schedulerIntervalMs: number;
  /** Shared state in Redis instead of the database (REDIS_URL). */
  redis: { url: string; prefix: string } | null;
  backup: { schedule: BackupSchedule | null; keep: number; dir: string };
  /** Insights: retention of reader-typed rows, and the proxy's country header (lower case) if any. */
  insights: { retentionDays: number; countryHeader: string | null };
  /** FEDERATION: "on"/"off" overrides the admin switch; null: the switch decides. */
  federation: "on" | "off" | null;
  /** FEDERATION_INBOX_PER_MINUTE: verified inbox POSTs one remote server may send per minute. */
  federationInboxPerMinute: number;
  /** FEDERATION_INBOX_PER_ADDRESS_PER_MINUTE: inbox POSTs one client address may send per minute. */
  federationInboxPerAddressPerMinute: number;
  /** FEDERATION_INBOX_TOTAL_PER_MINUTE: inbox POSTs taken per minute from everyone together. */
  federationInboxTotalPerMinute: number;
}

/**
 * When scheduled backups run. Full cron syntax is not supported on purpose: a
 * daily time (UTC) or a fixed interval covers a blog, and reads unambiguously.
 */
export type BackupSchedule = { kind: "daily"; hour: number; minute: number } | { kind: "every"; ms: number };

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function parseBackupSchedule(text: string): BackupSchedule | null {
  const value = text.trim();
  const daily = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (daily) return { kind: "daily", hour: Number(daily[1]), minute: Number(daily[2]) };
  const every = /^(\d{1,4})\s*(m|h|d)$/.exec(value);
  if (!every) return null;
  const ms = Number(every[1]) * UNIT_MS[every[2] as keyof typeof UNIT_MS];
  return ms >= 60_000 && ms <= 30 * 86_400_000 ? { kind: "every", ms } : null;
}

export type StorageConfig =
  | { driver: "local"; root: string }
  | {
      driver: "s3";
      endpoint: string | null;
      region: string;
      bucket: string;
      accessKeyId: string | null;
      secretAccessKey: string | null;
      publicUrl: string | null;
      prefix: string;
    };

function storageConfig(v: z.infer<typeof schema>, dataDir: string): StorageConfig {
  if (v.STORAGE_DRIVER === "local") {
    // Each instance would see only the files uploaded through itself.
    if (v.INSTANCE_COUNT > 1) {
      throw new EnvError(
        "STORAGE_DRIVER: local disk cannot be shared by several instances (INSTANCE_COUNT > 1); use STORAGE_DRIVER=s3",
      );
    }
    return { driver: "local", root: path.join(dataDir, "uploads") };
  }
  if (!v.S3_BUCKET) throw new EnvError("S3_BUCKET: required when STORAGE_DRIVER=s3");
  if (Boolean(v.S3_ACCESS_KEY_ID) !== Boolean(v.S3_SECRET_ACCESS_KEY)) {
    throw new EnvError("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together");
  }
  return {
    driver: "s3",
    endpoint: v.S3_ENDPOINT ?? null,
    region: v.S3_REGION,
    bucket: v.S3_BUCKET,
    accessKeyId: v.S3_ACCESS_KEY_ID ?? null,
    secretAccessKey: v.S3_SECRET_ACCESS_KEY ?? null,
    publicUrl: v.S3_PUBLIC_URL ? v.S3_PUBLIC_URL.replace(/\/+$/, "") : null,
    prefix: v.S3_PREFIX ?? "",
  };
}

export class EnvError extends Error {
  override name = "EnvError";
}

/** Turns a DATABASE_URL (or its absence) into a dialect choice. */
export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseConfig {
  if (!url) return { dialect: "sqlite", file: path.resolve(dataDir, "inkwell.db") };
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: "postgres", connectionString: url };
  const file = url.replace(/^(sqlite|file):(\/\/)?/i, "");
  if (file === ":memory:") return { dialect: "sqlite", file };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new EnvError(
      "DATABASE_URL: unsupported scheme (use postgres://…, or a SQLite file path such as ./data/inkwell.db)",
    );
  }
  return { dialect: "sqlite", file: path.resolve(file) };
}

/**
 * Reads AUTH_SECRET, or the one generated earlier into the data directory, or
 * generates one and keeps it there (mode 0600). The secret is never logged.
 */
function resolveAuthSecret(given: string | undefined, dataDir: string): string {
  if (given) return given;
  const file = path.join(dataDir, "auth-secret");
  const stored = readAuthSecret(file);
  if (stored) return stored;
  mkdirSync(dataDir, { recursive: true });
  return storeAuthSecret(file, randomBytes(32).toString("base64url"));
}

function readAuthSecret(file: string): string | null {
  if (!existsSync(file)) return null;
  const stored = readFileSync(file, "utf8").trim();
  return stored.length >= 32 ? stored : null;
}

/**
 * Keeps `candidate` as the data directory's auth secret, unless another process sharing
 * the directory stored one first: then that one is returned, and every instance signs
 * with the same secret. Two instances started together on one data directory once each
 * wrote their own and kept it, so a session cookie from one was refused by the other.
 * The secret is written whole to a file of its own, then linked to its name, which fails
 * when the name exists: no process ever reads a half-written secret.
 */
export function storeAuthSecret(file: string, candidate: string): string {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temp, `${candidate}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  try {
    linkSync(temp, file);
    return candidate;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      const winner = readAuthSecret(file);
      if (winner) return winner;
      // Too short to be one of ours (written by hand): replaced, as before.
      renameSync(temp, file);
      return candidate;
    }
    // A file system without hard links: an exclusive create instead.
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP") {
      try {
        writeFileSync(file, `${candidate}\n`, { mode: 0o600, flag: "wx" });
        return candidate;
      } catch {
        return readAuthSecret(file) ?? candidate;
      }
    }
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Trimmed, lower-cased e-mail: the form admins and look-ups use. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function parseEmailList(list: string | undefined): string[] {
  if (!list) return [];
  const emails = list
    .split(",")
    .map(normalizeEmail)
    .filter((e) => e.length > 0);
  for (const email of emails) {
    if (!z.email().safeParse(email).success) throw new EnvError(`ADMIN_EMAILS: "${email}" is not an e-mail address`);
  }
  return [...new Set(emails)];
}

function oauthPairs(v: z.infer<typeof schema>): Env["oauth"] {
  const out: Env["oauth"] = {};
  const pairs: Array<[OAuthProviderId, string | undefined, string | undefined]> = [
    ["google", v.GOOGLE_CLIENT_ID, v.GOOGLE_CLIENT_SECRET],
    ["github", v.GITHUB_CLIENT_ID, v.GITHUB_CLIENT_SECRET],
    ["twitter", v.TWITTER_CLIENT_ID, v.TWITTER_CLIENT_SECRET],
  ];
  for (const [id, clientId, clientSecret] of pairs) {
    if (clientId && clientSecret) out[id] = { clientId, clientSecret };
    else if (clientId || clientSecret) {
      throw new EnvError(`${id.toUpperCase()}_CLIENT_ID and ${id.toUpperCase()}_CLIENT_SECRET must be set together`);
    }
  }
  return out;
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings mean "unset", as in most .env files.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue?.path.join(".") ?? "environment";
    throw new EnvError(`${name}: ${issue?.message ?? "invalid value"}`);
  }
  const v = result.data;
  const dataDir = path.resolve(v.DATA_DIR);
  const database = parseDatabaseUrl(v.DATABASE_URL, dataDir);
  const publicUrl = (v.PUBLIC_URL ?? `http://localhost:${v.PORT}`).replace(/\/+$/, "");
  return {
    nodeEnv: v.NODE_ENV,
    port: v.PORT,
    host: v.HOST,
    publicUrl,
    dataDir,
    database,
    authSecret: resolveAuthSecret(v.AUTH_SECRET, dataDir),
    logLevel: v.LOG_LEVEL,
    trustProxy: v.TRUST_PROXY,
    bodyLimitBytes: v.BODY_LIMIT_BYTES,
    logRequests: v.LOG_REQUESTS,
    smtpUrl: v.SMTP_URL ?? null,
    // The display name is the site's configured name, per mail (mail/site-name.server.ts).
    mailFrom: v.MAIL_FROM ?? `no-reply@${new URL(publicUrl).hostname}`,
    mailRatePerMinute: v.MAIL_RATE_PER_MINUTE,
    adminEmails: parseEmailList(v.ADMIN_EMAILS),
    passwordMinLength: v.PASSWORD_MIN_LENGTH,
    passwordRequiredClasses: [
      ...new Set(
        (v.PASSWORD_REQUIRE ?? "")
          .split(",")
          .map((c) => c.trim())
          .filter((c): c is "lower" | "upper" | "digit" | "symbol" =>
            ["lower", "upper", "digit", "symbol"].includes(c),
          ),
      ),
    ],
    rateLimitMultiplier: v.RATE_LIMIT_MULTIPLIER,
    oauth: oauthPairs(v),
    oidcTest:
      v.OIDC_TEST_DISCOVERY_URL && v.OIDC_TEST_CLIENT_ID && v.OIDC_TEST_CLIENT_SECRET
        ? {
            discoveryUrl: v.OIDC_TEST_DISCOVERY_URL,
            clientId: v.OIDC_TEST_CLIENT_ID,
            clientSecret: v.OIDC_TEST_CLIENT_SECRET,
          }
        : null,
    storage: storageConfig(v, dataDir),
    storageRetry: {
      deadlineMs: v.STORAGE_RETRY_SECONDS * 1000,
      uploadDeadlineMs: v.STORAGE_UPLOAD_RETRY_SECONDS * 1000,
    },
    uploadMaxBytes: v.UPLOAD_MAX_BYTES,
    solanaRpcUrl: v.SOLANA_RPC_URL,
    walletConnectProjectId: v.WALLETCONNECT_PROJECT_ID ?? null,
    walletConnectRelayUrl: parseRelayUrl(v.WALLETCONNECT_RELAY_URL) ?? DEFAULT_RELAY_URL,
    renderCache: { enabled: v.RENDER_CACHE, maxBytes: v.RENDER_CACHE_MAX_MB * 1024 * 1024 },
    instanceCount: v.INSTANCE_COUNT,
    schedulerIntervalMs: v.SCHEDULER_INTERVAL_MS,
    redis: v.REDIS_URL ? { url: v.REDIS_URL, prefix: v.REDIS_PREFIX } : null,
    backup: {
      schedule: v.BACKUP_CRON ? parseBackupSchedule(v.BACKUP_CRON) : null,
      keep: v.BACKUP_KEEP,
      dir: v.BACKUP_DIR ? path.resolve(v.BACKUP_DIR) : path.join(dataDir, "backups"),
    },
    insights: {
      retentionDays: v.INSIGHTS_RETENTION_DAYS,
      countryHeader: v.INSIGHTS_COUNTRY_HEADER ? v.INSIGHTS_COUNTRY_HEADER.toLowerCase() : null,
    },
    federation: v.FEDERATION ?? null,
    federationInboxPerMinute: v.FEDERATION_INBOX_PER_MINUTE,
    federationInboxPerAddressPerMinute: v.FEDERATION_INBOX_PER_ADDRESS_PER_MINUTE,
    federationInboxTotalPerMinute: v.FEDERATION_INBOX_TOTAL_PER_MINUTE,
  };
}
