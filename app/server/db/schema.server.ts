import type { Generated, Kysely } from "kysely";
import type {
  AccountsTable,
  AdminsTable,
  AuditLogTable,
  RateLimitsTable,
  SessionsTable,
  SetupTokensTable,
  UsersTable,
  VerificationsTable,
} from "./schema/accounts.server.ts";
import type {
  ContactMessagesTable,
  MailOutboxTable,
  NewsletterSendsTable,
  SubscriberImportRowsTable,
  SubscriberImportsTable,
  SubscribersTable,
} from "./schema/audience.server.ts";
import type {
  CategoriesTable,
  CommentsTable,
  MediaTable,
  PageRevisionsTable,
  PagesTable,
  PostRevisionsTable,
  PostSearchTable,
  PostsTable,
  PostTagsTable,
  PostTranslationsTable,
  PreviewLinksTable,
  RedirectsTable,
  SeriesTable,
  SocialCardsTable,
  TagsTable,
} from "./schema/content.server.ts";
import type {
  FederationBlocksTable,
  FederationDeliveriesTable,
  FederationFollowersTable,
  FederationKeysTable,
  FederationKvTable,
  FederationPostsTable,
  FederationQueueTable,
  FederationReactionsTable,
  FederationRemoteActorsTable,
  FederationServersTable,
} from "./schema/federation.server.ts";
import type { ImportSourcesTable, PostImportItemsTable, PostImportsTable } from "./schema/imports.server.ts";
import type {
  AdsTable,
  ContentChangesTable,
  ContentVersionTable,
  InsightCountsTable,
  InsightSaltsTable,
  InsightVisitorsTable,
  JobLeasesTable,
  LinksTable,
  MenusTable,
  SiteSettingsTable,
  SwapersTable,
} from "./schema/site.server.ts";

/**
 * The whole database, one interface (docs/conventions.md, "Data"): Kysely types every query
 * from it. The tables' types live in `schema/`, one file per area (content, accounts,
 * audience, federation, imports, site), where a table reads beside its neighbours.
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

export type * from "./schema/accounts.server.ts";
export type * from "./schema/audience.server.ts";
// Every table's type and the column types, from the parts, for one import site.
export type * from "./schema/common.server.ts";
export type * from "./schema/content.server.ts";
export type * from "./schema/federation.server.ts";
export type * from "./schema/imports.server.ts";
export type * from "./schema/site.server.ts";
// Re-exported so callers needing generated columns later have one import site.
export type { Generated };
