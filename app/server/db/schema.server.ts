import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * The whole database, one interface (DESIGN.md §4.5). Column names are camelCase
 * on both dialects. Timestamps are ISO-8601 UTC strings (`2026-11-22T17:00:00.000Z`)
 * on both dialects, set by the server; booleans are integers 0/1 on both.
 */
export interface Database {
  posts: PostsTable;
  postTranslations: PostTranslationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  admins: AdminsTable;
  rateLimits: RateLimitsTable;
  setupTokens: SetupTokensTable;
  siteSettings: SiteSettingsTable;
  contactMessages: ContactMessagesTable;
  subscribers: SubscribersTable;
}

export interface SiteSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  message: string;
  locale: Locale;
  ipAddress: string | null;
  status: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type Locale = "en" | "zh";
export type PostStatus = "draft" | "published" | "scheduled";

/** Stored as text; always written with `nowIso()`. */
export type Timestamp = string;

export interface PostsTable {
  id: string;
  slug: string;
  authorId: string | null;
  status: PostStatus;
  publishedAt: Timestamp | null;
  categoryId: string | null;
  coverImageId: string | null;
  featured: ColumnType<number, number | undefined, number>;
  viewCount: ColumnType<number, number | undefined, number>;
  version: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PostTranslationsTable {
  postId: string;
  locale: Locale;
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
  tocJson: ColumnType<string, string | undefined, string>;
  readingMinutes: ColumnType<number, number | undefined, number>;
  seoTitle: string | null;
  seoDescription: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  emailVerified: number;
  image: string | null;
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

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed";

/** Newsletter subscribers (double opt-in). */
export interface SubscribersTable {
  id: string;
  /** Normalised: trimmed, lower-case. */
  email: string;
  locale: Locale;
  status: SubscriberStatus;
  /** sha256 (hex) of the token in the confirmation link. */
  confirmTokenHash: string;
  /** sha256 (hex) of the token in every mail's unsubscribe link. */
  unsubscribeTokenHash: string;
  confirmedAt: Timestamp | null;
  unsubscribedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type PostRow = Selectable<PostsTable>;
export type NewPostRow = Insertable<PostsTable>;
export type PostRowUpdate = Updateable<PostsTable>;
export type PostTranslationRow = Selectable<PostTranslationsTable>;
export type NewPostTranslationRow = Insertable<PostTranslationsTable>;

// Re-exported so callers needing generated columns later have one import site.
export type { Generated };
