import type { Migration } from "kysely/migration";
import * as createPosts from "./20261122T170000_create_posts.ts";
import * as createAuth from "./20261122T180000_create_auth.ts";
import * as createSiteSettings from "./20261122T183000_create_site_settings.ts";
import * as createSubscribers from "./20261122T190000_create_subscribers.ts";
import * as createTaxonomyAndComments from "./20261122T200000_create_taxonomy_and_comments.ts";
import * as createSwapers from "./20261122T201000_create_swapers.ts";
import * as createAuditLog from "./20261122T202000_create_audit_log.ts";
import * as createPostSearch from "./20261122T213000_create_post_search.ts";
import * as createLinks from "./20261122T224000_create_links.ts";
import * as createAds from "./20261122T224100_create_ads.ts";
import * as addUserBan from "./20261122T230500_add_user_ban.ts";
import * as createMedia from "./20261123T000000_create_media.ts";
import * as createContentVersion from "./20261123T010000_create_content_version.ts";
import * as createJobLeases from "./20261123T020000_create_job_leases.ts";
import * as addSearchKeyIndex from "./20261123T030000_add_search_key_index.ts";
import * as addPostListingIndexes from "./20261123T040000_add_post_listing_indexes.ts";
import * as createMailOutbox from "./20261125T010000_create_mail_outbox.ts";
import * as addSearchHeadVector from "./20261125T100000_add_search_head_vector.ts";
import * as createContentChanges from "./20261125T120000_create_content_changes.ts";
import * as addIdToPostsListedIdx from "./20261125T170000_add_id_to_posts_listed_idx.ts";
import * as addSearchHeadIndex from "./20261125T200000_add_search_head_index.ts";
import * as addNewsletter from "./20261126T120000_add_newsletter.ts";
import * as addSearchRecencyBuckets from "./20261126T130000_add_search_recency_buckets.ts";
import * as addUserNotificationPrefs from "./20261126T130500_add_user_notification_prefs.ts";
import * as createRedirects from "./20261126T140000_create_redirects.ts";
import * as createPostRevisions from "./20261126T141000_create_post_revisions.ts";
import * as createPreviewLinks from "./20261126T141100_create_preview_links.ts";
import * as addUserProfile from "./20261126T143000_add_user_profile.ts";
import * as fillUserProfile from "./20261126T143100_fill_user_profile.ts";
import * as createSubscriberImports from "./20261126T144000_create_subscriber_imports.ts";
import * as addAdTranslations from "./20261126T201500_add_ad_translations.ts";
import * as fillAdTranslations from "./20261126T201600_fill_ad_translations.ts";
import * as createPostImports from "./20261126T210000_create_post_imports.ts";
import * as createSeries from "./20261126T211000_create_series.ts";
import * as createInsights from "./20261126T221000_create_insights.ts";
import * as addCommentGuestAuthor from "./20261127T010000_add_comment_guest_author.ts";
import * as createFederation from "./20261127T020000_create_federation.ts";
import * as addFediverseReplies from "./20261128T010000_add_fediverse_replies.ts";
import * as addFederationOutbound from "./20261128T020000_add_federation_outbound.ts";
import * as addPostImportPlan from "./20261128T030000_add_post_import_plan.ts";
import * as dropPostsPublicIdxOnSqlite from "./20261128T040000_drop_posts_public_idx_on_sqlite.ts";
import * as addTranslationSync from "./20261129T050000_add_translation_sync.ts";
import * as createPagesAndMenus from "./20261129T050000_create_pages_and_menus.ts";
import * as createSocialCards from "./20261129T050000_create_social_cards.ts";
import * as fillSystemPages from "./20261129T050100_fill_system_pages.ts";
import * as addPostImportPages from "./20261129T090000_add_post_import_pages.ts";

/**
 * Every migration, in order. Listed explicitly so the same history runs in the
 * server bundle, the CLI and the tests; a test checks this list against the folder.
 */
export const migrations: Record<string, Migration> = {
  "20261122T170000_create_posts": createPosts,
  "20261122T180000_create_auth": createAuth,
  "20261122T183000_create_site_settings": createSiteSettings,
  "20261122T190000_create_subscribers": createSubscribers,
  "20261122T200000_create_taxonomy_and_comments": createTaxonomyAndComments,
  "20261122T201000_create_swapers": createSwapers,
  "20261122T202000_create_audit_log": createAuditLog,
  "20261122T213000_create_post_search": createPostSearch,
  "20261122T224000_create_links": createLinks,
  "20261122T224100_create_ads": createAds,
  "20261122T230500_add_user_ban": addUserBan,
  "20261123T000000_create_media": createMedia,
  "20261123T010000_create_content_version": createContentVersion,
  "20261123T020000_create_job_leases": createJobLeases,
  "20261123T030000_add_search_key_index": addSearchKeyIndex,
  "20261123T040000_add_post_listing_indexes": addPostListingIndexes,
  "20261125T010000_create_mail_outbox": createMailOutbox,
  "20261125T100000_add_search_head_vector": addSearchHeadVector,
  "20261125T120000_create_content_changes": createContentChanges,
  "20261125T170000_add_id_to_posts_listed_idx": addIdToPostsListedIdx,
  "20261125T200000_add_search_head_index": addSearchHeadIndex,
  "20261126T120000_add_newsletter": addNewsletter,
  "20261126T130000_add_search_recency_buckets": addSearchRecencyBuckets,
  "20261126T130500_add_user_notification_prefs": addUserNotificationPrefs,
  "20261126T140000_create_redirects": createRedirects,
  "20261126T141000_create_post_revisions": createPostRevisions,
  "20261126T141100_create_preview_links": createPreviewLinks,
  "20261126T143000_add_user_profile": addUserProfile,
  "20261126T143100_fill_user_profile": fillUserProfile,
  "20261126T144000_create_subscriber_imports": createSubscriberImports,
  "20261126T201500_add_ad_translations": addAdTranslations,
  "20261126T201600_fill_ad_translations": fillAdTranslations,
  "20261126T210000_create_post_imports": createPostImports,
  "20261126T211000_create_series": createSeries,
  "20261126T221000_create_insights": createInsights,
  "20261127T010000_add_comment_guest_author": addCommentGuestAuthor,
  "20261127T020000_create_federation": createFederation,
  "20261128T010000_add_fediverse_replies": addFediverseReplies,
  "20261128T020000_add_federation_outbound": addFederationOutbound,
  "20261128T030000_add_post_import_plan": addPostImportPlan,
  "20261128T040000_drop_posts_public_idx_on_sqlite": dropPostsPublicIdxOnSqlite,
  "20261129T050000_add_translation_sync": addTranslationSync,
  "20261129T050000_create_pages_and_menus": createPagesAndMenus,
  "20261129T050000_create_social_cards": createSocialCards,
  "20261129T050100_fill_system_pages": fillSystemPages,
  "20261129T090000_add_post_import_pages": addPostImportPages,
};
