import type { ColumnType, Generated, Kysely } from "kysely";

/**
 * The whole database, one interface (docs/conventions.md, "Data"), in one file on purpose:
 * Kysely types every query from it, and a table reads best beside its neighbours.
 * Column names are camelCase on both dialects. Timestamps are ISO-8601 UTC strings (`2026-11-22T17:00:00.000Z`)
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
  categories: CategoriesTable;
  series: SeriesTable;
  tags: TagsTable;
  postTags: PostTagsTable;
  comments: CommentsTable;
  swapers: SwapersTable;
  links: LinksTable;
  redirects: RedirectsTable;
  ads: AdsTable;
  auditLog: AuditLogTable;
  postSearch: PostSearchTable;
  media: MediaTable;
  contentVersion: ContentVersionTable;
  contentChanges: ContentChangesTable;
  jobLeases: JobLeasesTable;
  mailOutbox: MailOutboxTable;
  newsletterSends: NewsletterSendsTable;
  subscriberImports: SubscriberImportsTable;
  subscriberImportRows: SubscriberImportRowsTable;
  postRevisions: PostRevisionsTable;
  previewLinks: PreviewLinksTable;
  importSources: ImportSourcesTable;
  postImports: PostImportsTable;
  postImportItems: PostImportItemsTable;
  insightCounts: InsightCountsTable;
  insightVisitors: InsightVisitorsTable;
  insightSalts: InsightSaltsTable;
  federationKv: FederationKvTable;
  federationQueue: FederationQueueTable;
  federationKeys: FederationKeysTable;
  federationFollowers: FederationFollowersTable;
  federationPosts: FederationPostsTable;
  federationRemoteActors: FederationRemoteActorsTable;
  federationReactions: FederationReactionsTable;
  federationBlocks: FederationBlocksTable;
  federationDeliveries: FederationDeliveriesTable;
  federationServers: FederationServersTable;
  pages: PagesTable;
  pageRevisions: PageRevisionsTable;
  menus: MenusTable;
  socialCards: SocialCardsTable;
}

/**
 * A handle on the database (or a transaction in it). Here rather than in db.server.ts, which
 * opens it, so that modules db.server.ts itself uses (reusable-query.server.ts) can name it
 * without importing that module back.
 */
export type DB = Kysely<Database>;

/** Fedify's key–value store: `key` is the JSON of the key array, `value` JSON. */
export interface FederationKvTable {
  key: string;
  value: string;
  expiresAt: Timestamp | null;
}

/** Fedify's durable message queue (deliveries, fan-out, incoming activities). */
export interface FederationQueueTable {
  id: string;
  /** JSON. */
  message: string;
  orderingKey: string | null;
  runAt: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  /** Set while a worker handles the message; past: the worker died, the message is due again. */
  lockedUntil: Timestamp | null;
  lastError: string | null;
  createdAt: Timestamp;
}

/** The federated accounts: one per language. */
export type FederationActor = "en" | "zh";

export interface FederationKeysTable {
  actor: FederationActor;
  algorithm: "rsa" | "ed25519";
  publicJwk: string;
  privateJwk: string;
  createdAt: Timestamp;
}

export interface FederationFollowersTable {
  id: string;
  actor: FederationActor;
  followerUri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
  /** "@name@server" as the follower's WebFinger handle. */
  handle: string;
  name: string;
  server: string;
  createdAt: Timestamp;
}

/** What an actor has federated of a post: the hash of the Article last sent. */
export interface FederationPostsTable {
  postId: string;
  actor: FederationActor;
  hash: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A remote account that replied, liked or boosted (its avatar is stored, never shown to readers). */
export interface FederationRemoteActorsTable {
  uri: string;
  url: string | null;
  /** "@user@server". */
  handle: string;
  name: string;
  avatarUrl: string | null;
  server: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type FederationReactionKind = "like" | "announce";

/** One Like or Announce of a post per remote actor and kind. */
export interface FederationReactionsTable {
  postId: string;
  actorUri: string;
  kind: FederationReactionKind;
  activityUri: string;
  createdAt: Timestamp;
}

export type FederationBlockKind = "actor" | "domain";

/** A blocked remote actor (`value` its URI) or server (`value` its host name, lower case). */
export interface FederationBlocksTable {
  id: string;
  kind: FederationBlockKind;
  value: string;
  createdAt: Timestamp;
}

/** What became of one delivery attempt to an inbox (the admin's delivery log). */
export type DeliveryOutcome = "sent" | "retrying" | "gave-up" | "skipped";

/** One outbound delivery attempt: pruned by age and count (docs/decisions/023-federation.md). */
export interface FederationDeliveriesTable {
  id: string;
  createdAt: Timestamp;
  /** The inbox's host (with its port). */
  server: string;
  inbox: string;
  activityId: string | null;
  activityType: string;
  outcome: DeliveryOutcome;
  /** 0 for the first attempt. */
  attempt: number;
  /** The HTTP status the inbox answered with, when it answered. */
  status: number | null;
  error: string | null;
}

/** A server whose deliveries fail; dead (no deliveries) from `deadSince` until it is heard from. */
export interface FederationServersTable {
  server: string;
  failingSince: Timestamp;
  lastFailureAt: Timestamp;
  deadSince: Timestamp | null;
}

/** "cancelled": not sent on purpose (the reader unsubscribed or the post went away first). */
export type MailStatus = "queued" | "sent" | "failed" | "cancelled";

/** Every mail the site sends, queued with the change that causes it and sent by one worker. */
export interface MailOutboxTable {
  id: string;
  /** Unique per mail: queuing the same key twice keeps the first (e.g. `newsletter:{postId}:{subscriberId}`). */
  key: string;
  /** What it is for: "auth", "contact", "subscribe", … */
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers as a JSON object (List-Unsubscribe, …). */
  headers: string | null;
  status: MailStatus;
  attempts: Generated<number>;
  /** When the worker may try it (again). */
  nextAttemptAt: Timestamp;
  /** The server's reply to the last failed attempt. */
  lastError: string | null;
  createdAt: Timestamp;
  sentAt: Timestamp | null;
  /** A newsletter mail: its send; the body is rendered from the send's mail when it goes out. */
  sendId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The subscriber a newsletter mail is for (bounces are counted against them). */
  subscriberId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The language of the newsletter version this reader gets. */
  locale: ColumnType<Locale | null, Locale | null | undefined, Locale | null>;
  /** The sender's display name (the site's name in the recipient's language); null: MAIL_FROM as it is. */
  fromName: ColumnType<string | null, string | null | undefined, string | null>;
}

export type NewsletterSendStatus = "preparing" | "sending" | "cancelled";

/** One post mailed to its subscribers: recipients are queued in batches from `cursor` on. */
export interface NewsletterSendsTable {
  id: string;
  postId: string;
  status: NewsletterSendStatus;
  /** The last subscriber id queued (subscribers are walked in id order). */
  cursor: string | null;
  recipients: ColumnType<number, number | undefined, number>;
  /** JSON `NewsletterMails`: the rendered mail per language, set by the first batch. */
  mails: string | null;
  createdBy: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A live post's social card in one language: the file "{id}/card.jpg" in the store (issue 48). */
export interface SocialCardsTable {
  id: string;
  postId: string;
  locale: Locale;
  /** What the card was drawn from, hashed: a different hash means the card is redrawn. */
  inputHash: string;
  contentType: string;
  width: number;
  height: number;
  size: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Which instance runs a scheduled job, until when (renewed on every run). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expiresAt: Timestamp;
  updatedAt: Timestamp;
}

/** One row (id 1): bumped by every content change, polled by every instance. */
export interface ContentVersionTable {
  id: number;
  version: number;
  updatedAt: Timestamp;
}

/** What the bump to `version` touched: "*" (everything) or space-separated page tags. */
export interface ContentChangesTable {
  version: number;
  tags: string;
  createdAt: Timestamp;
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
  /** Absolute http(s) URL or site-relative path; null = no cover. */
  coverImageUrl: ColumnType<string | null, string | null | undefined, string | null>;
  coverAlt: ColumnType<string, string | undefined, string>;
  /** Set = in the trash (hidden everywhere but the admin trash). */
  deletedAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  featured: ColumnType<number, number | undefined, number>;
  /** 1: mail the post to subscribers when it first goes live (one send per post, ever). */
  newsletter: ColumnType<number, number | undefined, number>;
  /** 1: shared on the Fediverse (the editor's "Share on the Fediverse" box); 0: never federated. */
  federate: ColumnType<number, number | undefined, number>;
  /** The series the post belongs to (issue 23), and its part number there; null: none. */
  seriesId: ColumnType<string | null, string | null | undefined, string | null>;
  seriesPosition: ColumnType<number | null, number | null | undefined, number | null>;
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
  /**
   * When the other language changed after this version was last brought in line with it
   * (issue 47, posts/translation-sync.server.ts); null: up to date, or the only language.
   */
  outdatedSince: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** JSON { title, summary, bodyMarkdown }: the other language as this version was last in line with it; null while up to date. */
  syncedSource: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** "saved": what the post held after a save; "pending": changes to a live post readers do not see yet. */
export type RevisionKind = "saved" | "pending";

/** One revision of a post (issue 23): both languages and the settings, as JSON where they are lists. */
export interface PostRevisionsTable {
  id: string;
  postId: string;
  authorId: string | null;
  kind: RevisionKind;
  status: PostStatus;
  slug: string;
  publishedAt: Timestamp | null;
  categoryId: string | null;
  /** JSON array of tag names. */
  tags: string;
  coverImageUrl: string | null;
  coverAlt: string;
  /** JSON object by locale: { title, summary, bodyMarkdown, seoTitle, seoDescription }. */
  translations: string;
  seriesId: ColumnType<string | null, string | null | undefined, string | null>;
  seriesPosition: ColumnType<number | null, number | null | undefined, number | null>;
  /** A pending revision the publisher applies at this time (a scheduled update); null: on Update only. */
  scheduledFor: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A private preview link of a post (issue 23); only the token's SHA-256 is stored. */
export interface PreviewLinksTable {
  id: string;
  postId: string;
  tokenHash: string;
  createdBy: string | null;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
  createdAt: Timestamp;
}

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

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed";
/** Which versions of a post a subscriber reads: one language, or both (then their `locale` first). */
export type SubscriberLanguages = Locale | "both";

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
  languages: ColumnType<SubscriberLanguages, SubscriberLanguages | undefined, SubscriberLanguages>;
  /** Permanent delivery failures in a row; reset by a delivered mail. */
  bounceCount: ColumnType<number, number | undefined, number>;
  /** Set at the third permanent failure: never mailed again until they subscribe again. */
  bouncedAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface CategoriesTable {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
  description: ColumnType<string, string | undefined, string>;
  sortOrder: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A named, ordered run of posts (issue 23); a post belongs to at most one. */
export interface SeriesTable {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
  descriptionEn: ColumnType<string, string | undefined, string>;
  descriptionZh: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface TagsTable {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PostTagsTable {
  postId: string;
  tagId: string;
}

export type CommentStatus = "pending" | "approved" | "hidden" | "spam";

export interface CommentsTable {
  id: string;
  postId: string;
  /** Null once the author's account is deleted (the comment stays, anonymised). */
  authorId: string | null;
  /** One level of replies: a reply's parent is always a top-level comment. */
  parentId: string | null;
  bodyMarkdown: string;
  bodyHtml: string;
  status: CommentStatus;
  /** A comment by someone without an account here (imported): the name, e-mail and address they gave. */
  guestName: ColumnType<string | null, string | null | undefined, string | null>;
  guestEmail: ColumnType<string | null, string | null | undefined, string | null>;
  guestUrl: ColumnType<string | null, string | null | undefined, string | null>;
  /** A reply from the Fediverse: the Note's id (unique), its author's URI and the note's page. */
  remoteNoteUri: ColumnType<string | null, string | null | undefined, string | null>;
  remoteActorUri: ColumnType<string | null, string | null | undefined, string | null>;
  remoteUrl: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Home page carousel slides ("swapers", docs/conventions.md, "Words the product uses"). */
export interface SwapersTable {
  id: string;
  titleEn: ColumnType<string, string | undefined, string>;
  titleZh: ColumnType<string, string | undefined, string>;
  /** Absolute http(s) URL or site-relative path. */
  imageUrl: string;
  imageAlt: ColumnType<string, string | undefined, string>;
  /** Where a click goes: http(s) URL or site-relative path; null = not a link. */
  linkUrl: string | null;
  sortOrder: ColumnType<number, number | undefined, number>;
  enabled: ColumnType<number, number | undefined, number>;
  /** Optional time window; null = open-ended. */
  startsAt: Timestamp | null;
  endsAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Friend links: the public /links page and, when configured, the footer. */
/** A page (issue 48): bilingual Markdown at `/{slug}`; never a post (decision 035). */
export interface PagesTable {
  id: string;
  slug: string;
  /** "about", "contact" or "privacy": a page the site links itself, at a fixed address; else null. */
  systemKey: ColumnType<string | null, string | null | undefined, string | null>;
  status: "draft" | "published";
  titleEn: string;
  titleZh: string;
  /** Markdown. */
  bodyEn: string;
  bodyZh: string;
  descriptionEn: ColumnType<string, string | undefined, string>;
  descriptionZh: ColumnType<string, string | undefined, string>;
  authorId: string | null;
  version: ColumnType<number, number | undefined, number>;
  publishedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A saved state of a page: its fields as JSON (`PageContent`), coalesced like post revisions. */
export interface PageRevisionsTable {
  id: string;
  pageId: string;
  authorId: string | null;
  content: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A menu of one language ("main:en", "footer:zh"): its items as JSON; no row = the default menu. */
export interface MenusTable {
  key: string;
  items: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface LinksTable {
  id: string;
  name: string;
  /** Absolute http(s) URL. */
  url: string;
  /** http(s) URL or site-relative path; null = no logo. */
  logoUrl: string | null;
  description: ColumnType<string, string | undefined, string>;
  sortOrder: ColumnType<number, number | undefined, number>;
  enabled: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/**
 * Old URLs answered before routing (docs/decisions/012-redirects.md). `fromPath` is unique and
 * normalised (lower case, no trailing slash), with its query exactly as written: "/old", "/?p=123".
 */
export interface RedirectsTable {
  id: string;
  fromPath: string;
  /** A site path ("/posts/detail/…", optional query and fragment), or an https:// URL when `external` is 1. */
  toPath: string;
  /** 301 or 302. */
  status: ColumnType<number, number | undefined, number>;
  external: ColumnType<number, number | undefined, number>;
  /** Written in batches by the HTTP step's counter. */
  hits: ColumnType<number, number | undefined, number>;
  lastHitAt: Timestamp | null;
  /** Who made it: "manual", "import:csv", "import:wordpress", "slug-change"… */
  source: ColumnType<string, string | undefined, string>;
  note: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type AdPlacement = "home_top" | "sidebar" | "post_bottom" | "list_between";
export type AdKind = "image" | "text";

/**
 * Advertisements: plain text or an image, never HTML; clicks go through /ads/{id}/click.
 * The content has an English version (`title`, `text`, `imageUrl`, `imageAlt`: the old
 * names) and a Chinese one (`…Zh`); an empty title means that version is missing.
 */
export interface AdsTable {
  id: string;
  placement: AdPlacement;
  kind: AdKind;
  /** English title ("" = no English version). */
  title: string;
  /** Plain text (at most 200 characters), escaped when shown. */
  text: ColumnType<string, string | undefined, string>;
  /** http(s) URL or site-relative path (image ads). */
  imageUrl: string | null;
  imageAlt: ColumnType<string, string | undefined, string>;
  /** Chinese title ("" = no Chinese version). */
  titleZh: ColumnType<string, string | undefined, string>;
  textZh: ColumnType<string, string | undefined, string>;
  imageUrlZh: ColumnType<string | null, string | null | undefined, string | null>;
  imageAltZh: ColumnType<string, string | undefined, string>;
  /** Absolute http(s) URL: the only place /ads/{id}/click redirects to. */
  linkUrl: string;
  enabled: ColumnType<number, number | undefined, number>;
  startsAt: Timestamp | null;
  endsAt: Timestamp | null;
  /** 1–100: the chance of being picked among the placement's active ads. */
  weight: ColumnType<number, number | undefined, number>;
  impressions: ColumnType<number, number | undefined, number>;
  clicks: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One stored file of a media row: a WebP variant or the main file. */
export interface MediaFile {
  file: string;
  contentType: string;
  width: number;
  height: number;
  size: number;
}

/** Uploaded images (spec section 3 object metadata); files under "<id>/" in the store. */
export interface MediaTable {
  id: string;
  /** The uploader's file name: shown and searched, never used as a path. */
  originalName: string;
  bucket: string;
  /** The main file's key, "<id>/image.jpg". */
  name: string;
  fullPath: string;
  size: number;
  md5Hash: string;
  generation: string;
  metageneration: ColumnType<number, number | undefined, number>;
  contentType: string;
  cacheControl: string;
  contentDisposition: ColumnType<string, string | undefined, string>;
  contentEncoding: ColumnType<string, string | undefined, string>;
  contentLanguage: ColumnType<string, string | undefined, string>;
  /** JSON object of strings. */
  customMetadata: ColumnType<string, string | undefined, string>;
  width: number;
  height: number;
  /** JSON MediaFile[]: WebP variants, narrowest first. */
  variants: ColumnType<string, string | undefined, string>;
  uploadedBy: string | null;
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

/**
 * The search index (app/server/search): one row per post and language, its text
 * already cut into tokens separated by spaces. SQLite also has an integer `id`
 * (the rowid of the FTS5 table "postSearchFts" over this one); PostgreSQL a
 * generated `searchVector` tsvector (and `headVector`, title and summary only, for
 * ranking), and `seq` (the order rows were written) with its recency `bucket`, which
 * its GIN indexes hold beside the vectors. None is written by the app.
 */
export interface PostSearchTable {
  postId: string;
  locale: Locale;
  title: string;
  summary: string;
  body: string;
  updatedAt: Timestamp;
}

// Re-exported so callers needing generated columns later have one import site.
export type { Generated };

export type SubscriberImportStatus = "queued" | "running" | "done" | "failed";

/** One uploaded subscriber CSV, imported in the background from `processed` on (decision 011). */
export interface SubscriberImportsTable {
  id: string;
  status: ColumnType<SubscriberImportStatus, SubscriberImportStatus | undefined, SubscriberImportStatus>;
  fileName: string;
  /** The language for rows naming none (an `ImportDefaultLanguages`). */
  defaultLanguages: string;
  actorId: string;
  actorEmail: string;
  /** Candidate rows stored at upload. */
  total: ColumnType<number, number | undefined, number>;
  /** The cursor: candidate rows with `seq` below it are done. */
  processed: ColumnType<number, number | undefined, number>;
  imported: ColumnType<number, number | undefined, number>;
  /** Already on the list (any status): left as they were. */
  existing: ColumnType<number, number | undefined, number>;
  duplicates: ColumnType<number, number | undefined, number>;
  notSubscribed: ColumnType<number, number | undefined, number>;
  invalid: ColumnType<number, number | undefined, number>;
  /** JSON `ImportProblem[]`: the first invalid rows. */
  problems: ColumnType<string, string | undefined, string>;
  /** Chunks that failed in a row; the import fails at IMPORT_MAX_FAILURES. */
  failures: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  finishedAt: Timestamp | null;
}

/** A candidate row still to import (personal data: deleted as it is processed). */
export interface SubscriberImportRowsTable {
  importId: string;
  seq: number;
  line: number;
  email: string;
  languages: SubscriberLanguages;
  locale: Locale;
  createdAt: string | null;
}

/** What an importer made from what: a second run finds its rows here (docs/decisions/020-importers.md). */
export interface ImportSourcesTable {
  /** The importer: "markdown", later "ghost", "wordpress". */
  source: string;
  /** What was made: see ImportEntity (app/server/import/import-sources.server.ts). */
  entity: string;
  /** The source's own id: a file's path in its folder, an image's SHA-256. */
  sourceId: string;
  targetId: string;
  /** The source content's hash at the last write ("" when not compared). */
  hash: ColumnType<string, string | undefined, string>;
  /** The post's version right after the import wrote it: a post edited since is left alone. */
  targetVersion: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** "staged": read and dry-run, waiting for the admin to confirm (the admin Import page). */
/** `reading`: its source is still being read and its items appended (no worker takes it yet). */
export type PostImportStatus = "reading" | "staged" | "queued" | "running" | "done" | "failed";

/** One post import run, written a chunk at a time from `processed` on. */
export interface PostImportsTable {
  id: string;
  kind: string;
  status: ColumnType<PostImportStatus, PostImportStatus | undefined, PostImportStatus>;
  /** What was imported, as the user named it (a folder, a file name). */
  label: string;
  /** Where the worker reads the source's images from. */
  rootDir: string;
  actorId: string | null;
  actorEmail: string;
  /** The user the imported posts belong to. */
  authorId: string | null;
  total: ColumnType<number, number | undefined, number>;
  processed: ColumnType<number, number | undefined, number>;
  imported: ColumnType<number, number | undefined, number>;
  updated: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  imagesStored: ColumnType<number, number | undefined, number>;
  imagesMissing: ColumnType<number, number | undefined, number>;
  redirectsAdded: ColumnType<number, number | undefined, number>;
  commentsAdded: ColumnType<number, number | undefined, number>;
  /** JSON `ImportReportLine[]`, bounded. */
  report: ColumnType<string, string | undefined, string>;
  /** A staged import's dry run (JSON `{ counts, report }`, the report bounded); null: none kept. */
  plan: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: remote images are fetched (SSRF-safe) into the media library; 0: they stay links. */
  fetchRemote: ColumnType<number, number | undefined, number>;
  failures: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  finishedAt: Timestamp | null;
}

/** An item still to write: an `ImportedPost` as JSON. */
export interface PostImportItemsTable {
  importId: string;
  seq: number;
  payload: string;
}

/** Insights: how often something happened on a UTC day (docs/decisions/021-insights.md). */
export interface InsightCountsTable {
  /** "YYYY-MM-DD", UTC. */
  day: string;
  /** What is counted: "views", "visitors", "post", "page", "lang", "referrer", "source", "country", "search" … */
  metric: string;
  /** Which one ("" for a day's total). */
  key: string;
  count: ColumnType<number, number | undefined, number>;
}

/** A day's unique-visitor hashes (salted with that day's salt), deleted once the day is counted. */
export interface InsightVisitorsTable {
  day: string;
  hash: string;
}

/** Each day's random salt for visitor hashes, shared by every instance and deleted after the day. */
export interface InsightSaltsTable {
  day: string;
  salt: string;
  createdAt: string;
}
