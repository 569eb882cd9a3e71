import type { Migration } from "kysely/migration";
import * as createPosts from "./20261122T170000_create_posts.ts";
import * as createAuth from "./20261122T180000_create_auth.ts";
import * as createSiteSettings from "./20261122T183000_create_site_settings.ts";
import * as createSubscribers from "./20261122T190000_create_subscribers.ts";

/**
 * Every migration, in order. Listed explicitly so the same history runs in the
 * server bundle, the CLI and the tests; a test checks this list against the folder.
 */
export const migrations: Record<string, Migration> = {
  "20261122T170000_create_posts": createPosts,
  "20261122T180000_create_auth": createAuth,
  "20261122T183000_create_site_settings": createSiteSettings,
  "20261122T190000_create_subscribers": createSubscribers,
};
