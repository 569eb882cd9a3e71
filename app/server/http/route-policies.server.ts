import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { mergePolicies, policyOf, type RoutePolicy } from "../../lib/route-policy.ts";

/** What the HTTP layer knows of a request's route before React Router runs it. */
export interface MatchedRoute {
  policy: RoutePolicy;
  /** The deepest matched route's id ("post-detail", "routes/admin/users", …), or null. */
  routeId: string | null;
  params: Readonly<Record<string, string | undefined>>;
}

type ManifestRoute = NonNullable<ServerBuild["routes"][string]>;

/** The page path a request is for: React Router data requests name it with ".data" ("/_root.data" is "/"). */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  return path.length > 1 ? path.replace(/\/$/, "") : path;
}

/** The build's route manifest as a tree React Router can match, each route carrying its declared policy. */
export function routeTree(manifest: ServerBuild["routes"]): RouteObject[] {
  const byParent = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(route);
    byParent.set(route.parentId, siblings);
  }
  const build = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((route): RouteObject => {
      const handle = { policy: policyOf(route.module.handle) };
      if (route.index) return { id: route.id, index: true, path: route.path, handle };
      return {
        id: route.id,
        path: route.path,
        caseSensitive: route.caseSensitive,
        handle,
        children: build(route.id),
      };
    });
  return build(undefined);
}

/** At most this many paths' answers are remembered; then the memory starts afresh. */
const MEMO_SIZE = 2000;

/**
 * Matches a path against the route table the way React Router will, and merges the
 * policies declared along the way (the root first, the page last). Answers are
 * remembered per path: matching ranks every route, and the cached-page path must stay cheap.
 */
export function createRouteMatcher(tree: RouteObject[]): (pathname: string) => MatchedRoute {
  const memo = new Map<string, MatchedRoute>();
  return (pathname) => {
    const path = pagePathOf(pathname);
    const known = memo.get(path);
    if (known) return known;
    const matches = matchRoutes(tree, path) ?? [];
    const leaf = matches[matches.length - 1];
    const result: MatchedRoute = {
      policy: mergePolicies(
        matches.map((m) => (m.route.handle as { policy: Partial<RoutePolicy> | null } | undefined)?.policy ?? null),
      ),
      routeId: leaf?.route.id ?? null,
      params: leaf?.params ?? {},
    };
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(path, result);
    return result;
  };
}
