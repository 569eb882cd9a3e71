// The Fediverse paths, host and delivery constants, without Fedify: the HTTP step and the admin page need
// them on every request, and Fedify itself is loaded only once federation is used
// (service.server.ts).

/** Where Fedify's routes are (one place: the HTTP step sends only these paths to Fedify). */
export const FEDERATION_PATHS = {
  actor: "/ap/actors/{identifier}",
  inbox: "/ap/actors/{identifier}/inbox",
  sharedInbox: "/ap/inbox",
  outbox: "/ap/actors/{identifier}/outbox",
  followers: "/ap/actors/{identifier}/followers",
  article: "/ap/articles/{locale}/{id}",
  nodeinfo: "/nodeinfo/2.1",
} as const;

/** Whether Fedify serves `path` (its well-known endpoints and everything under /ap/). */
export function isFederationPath(path: string): boolean {
  return (
    path === "/.well-known/webfinger" ||
    path === "/.well-known/nodeinfo" ||
    path === FEDERATION_PATHS.nodeinfo ||
    path.startsWith("/ap/")
  );
}

/**
 * The blog's page for a Fediverse address a browser opened (it asked for HTML, not
 * ActivityStreams): an account (or its inbox, outbox, followers) is the blog in that
 * language, as the actor's `url` says; an Article is its post. Null for anything else.
 */
export function htmlPageOf(path: string): string | null {
  const actor = /^\/ap\/actors\/(en|zh)(?:\/(?:inbox|outbox|followers))?\/?$/.exec(path);
  if (actor) return `/${actor[1]}`;
  const article = /^\/ap\/articles\/(en|zh)\/([0-9a-z]{20})\/?$/.exec(path);
  if (article) return `/${article[1]}/posts/detail/${article[2]}`;
  return null;
}

/** "https://example.com:8443/x" → "example.com:8443": the host handles are made with. */
export function federationHost(publicUrl: string): string {
  return new URL(publicUrl).host;
}

/** Inbox answers that end a delivery at once (Fedify's default): the account or the inbox is gone. */
export const PERMANENT_FAILURE_STATUSES: readonly number[] = [404, 410];

/** A failed delivery's first retry: 30 s to a minute, doubling, ten tries: given up after ~8–17 hours. */
export const DELIVERY_RETRY_INITIAL_MS = 30_000;
export const DELIVERY_ATTEMPTS = 10;
