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
 * A route's leading literal path segments, lowercased, at most two: none when it starts
 * with a parameter, a splat, an optional or empty segment, or has no path of its own.
 */
function literalPrefix(route: RouteObject): string[] {
  const prefix: string[] = [];
  if (route.index || route.path === undefined || route.caseSensitive) return prefix;
  for (const segment of route.path.split("/")) {
    if (prefix.length === 2 || segment === "" || /[:*?]/.test(segment)) break;
    prefix.push(segment.toLowerCase());
  }
  return prefix;
}

/**
 * The route tree cut down to the root's children that can match a path: those whose
 * leading literal segments are the path's own (matched without case, as React Router
 * does) and those without any. `matchRoutes` ranks every route it is given on each call
 * (0.8 ms for ~190 routes): a path the memory does not hold, as a crawler's, paid that
 * before its page was even looked up. Paths with an escape or an empty segment, which
 * React Router decodes or reads in its own ways, get the whole tree.
 */
function narrowedTrees(tree: RouteObject[]): (path: string) => RouteObject[] {
  const root = tree[0];
  if (tree.length !== 1 || !root || root.path || !root.children) return () => tree;
  const children = root.children;
  const prefixes = children.map(literalPrefix);
  const keys = new Set(prefixes.filter((p) => p.length > 0).map((p) => p.join("/")));
  const trees = new Map<string, RouteObject[]>();
  return (path) => {
    if (path.includes("%") || path.includes("//")) return tree;
    const [first = "", second = ""] = path.toLowerCase().split("/").slice(1, 3);
    const one = keys.has(first) ? first : "";
    const two = keys.has(`${first}/${second}`) ? `${first}/${second}` : "";
    const key = `${one}|${two}`;
    let narrowed = trees.get(key);
    if (!narrowed) {
      const kept = children.filter((_, i) => {
        const prefix = (prefixes[i] ?? []).join("/");
        return prefix === "" || prefix === one || prefix === two;
      });
      narrowed = [{ ...root, children: kept }];
      trees.set(key, narrowed);
    }
    return narrowed;
  };
}

/**
 * Matches a path against the route table the way React Router will, and merges the
 * policies declared along the way (the root first, the page last). Answers are
 * remembered per path: the cached-page path must stay cheap.
 */
export function createRouteMatcher(tree: RouteObject[]): (pathname: string) => MatchedRoute {
  const memo = new Map<string, MatchedRoute>();
  const narrow = narrowedTrees(tree);
  return (pathname) => {
    const path = pagePathOf(pathname);
    const known = memo.get(path);
    if (known) return known;
    const matches = matchRoutes(narrow(path), path) ?? [];
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
