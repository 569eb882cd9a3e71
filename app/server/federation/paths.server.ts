// The Fediverse paths and host, without Fedify: the HTTP step and the admin page need
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

/** "https://example.com:8443/x" → "example.com:8443": the host handles are made with. */
export function federationHost(publicUrl: string): string {
  return new URL(publicUrl).host;
}
