// Part of the database's one interface (`../schema.server.ts`): Accounts (better-auth's tables), admins, rate limits, setup tokens and the audit log.
import type { ColumnType } from "kysely";
import type { Locale, Timestamp } from "./common.server.ts";

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  emailVerified: number;
  image: string | null;
  /** 1 = banned: no sessions, cannot sign in (admin users section). */
  banned: ColumnType<number, number | undefined, number>;
  bannedAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Set whenever a session is created (sessions themselves go on sign-out). */
  lastSignInAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** 1 = mail me when someone replies to my comment (default); 0 = off (stop link, account page). */
  replyNotifications: ColumnType<number, number | undefined, number>;
  /** The language the user last used the site in, for the mail we send unasked; null: the default. */
  locale: ColumnType<Locale | null, Locale | null | undefined, Locale | null>;
  /** The author page's unique URL name (/authors/{handle}); set once, null only until assigned. */
  handle: ColumnType<string | null, string | null | undefined, string | null>;
  /** A short public text about the person (account page); null: none. */
  bio: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SessionsTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface AccountsTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface AdminsTable {
  /** Normalised: trimmed, lower-case. */
  email: string;
  source: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  /** Milliseconds since the epoch (bigint: pg returns it as a string). */
  windowStart: ColumnType<string | number, number, number>;
  expiresAt: ColumnType<string | number, number, number>;
}

export interface SetupTokensTable {
  tokenHash: string;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One admin change: who, what, when (the admin dashboard lists the latest). */
export interface AuditLogTable {
  id: string;
  actorId: string | null;
  actorEmail: string;
  /** e.g. `swaper.create`, `post.publish`. */
  action: string;
  entityType: string;
  entityId: string | null;
  /** JSON object with what changed. */
  details: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
