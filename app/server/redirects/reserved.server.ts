import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { RedirectKey } from "../../lib/redirects.ts";
import routes from "../../routes.ts";
import type { DB } from "../db/db.server.ts";

// Which from-paths a redirect may never take (docs/decisions/012-redirects.md, "Paths the site
// answers"). Derived from the route table itself, so a route added later is reserved without
// anyone remembering to list it; the paths answered before React Router (health, assets,
// media, files, Fediverse) are added by name. Every writer of the redirects table (the admin
// form, the CSV import, the importers) asks `redirectFromRefusal`; the HTTP step asks
// `isReservedFrom` when it loads the rows and `liveContentAt` before it answers a row on a
// content address.

/** A content page whose address is taken only while the thing it shows exists. */
export type LiveKind = "post" | "category" | "tag" | "series" | "author" | "page";

/** Which path segment names the thing, and what it is: a redirect from there waits for it to go. */
export interface LiveRef {
  kind: LiveKind;
  value: string;
}

/**
 * Routes (by id, without the -en/-zh of their language forms) that show one post, term,
 * series or author, and the parameter naming it. Their addresses may be redirected once the
 * thing is gone (a deleted post to its replacement); every other route is reserved whole, so a
 * route added later is reserved unless it is named here.
 */
const LIVE_ROUTES: Readonly<Record<string, { kind: LiveKind; param: string }>> = {
  "post-detail": { kind: "post", param: "id" },
  category: { kind: "category", param: "slug" },
  "category-page": { kind: "category", param: "slug" },
  tag: { kind: "tag", param: "slug" },
  "tag-page": { kind: "tag", param: "slug" },
  series: { kind: "series", param: "slug" },
  author: { kind: "author", param: "handle" },
  "author-page": { kind: "author", param: "handle" },
  "author-rss": { kind: "author", param: "handle" },
  "author-atom": { kind: "author", param: "handle" },
  "author-json-feed": { kind: "author", param: "handle" },
  // An owner's page at `/{slug}` (decision 035): any one-segment address no route names.
  page: { kind: "page", param: "slug" },
};

/**
 * Paths answered before React Router sees a request, as route patterns: every `.well-known`
 * name (WebFinger, NodeInfo, ACME, security.txt: any of them may matter to someone), the
 * Fediverse endpoints, health and build checks, hashed assets, media and the client build's
 * top-level files (public/). Then whole families the route table holds only in part, kept
 * whole as before this check read the table: nothing under /admin, /api, /account, sign-in
 * and set-up, or the sitemaps is ever a redirect.
 */
const OUTSIDE_ROUTER = [
  ".well-known/*",
  "ap/*",
  "nodeinfo/*",
  "healthz/*",
  "readyz/*",
  "builds/*",
  "assets/*",
  "media/*",
  "favicon.ico/*",
  "favicon.svg/*",
  "social.jpg/*",
  "admin/*",
  "api/*",
  "login/*",
  "logout/*",
  "register/*",
  "forgot-password/*",
  "reset-password/*",
  "verify-email/*",
  "account/*",
  "setup/*",
  "locale/*",
  "robots.txt/*",
  "sitemap.xml/*",
  "sitemaps/*",
];

/** A node of the pattern tree: literal children, one child for any single segment, and "everything below". */
interface Node {
  literal: Map<string, Node>;
  param: Node | null;
  /** A pattern ends here: reserved, or live (the segment index and kind of the named thing). */
  end: { live: { kind: LiveKind; at: number } | null } | null;
  /** A `*` here: this path and everything under it is reserved. */
  splat: boolean;
}

const newNode = (): Node => ({ literal: new Map(), param: null, end: null, splat: false });

interface Pattern {
  segments: string[];
  live: { kind: LiveKind; at: number } | null;
}

/** The route table's full patterns ("en/posts/detail/:id"), each with what makes it live, if anything. */
function patternsOf(entries: readonly RouteConfigEntry[], parent: string[] = []): Pattern[] {
  const out: Pattern[] = [];
  for (const entry of entries) {
    const own = entry.path ? entry.path.split("/").filter((s) => s !== "") : [];
    const segments = [...parent, ...own];
    if (entry.children) out.push(...patternsOf(entry.children, segments));
    // The catch-all not-found page answers every path: it is what a redirect is for.
    if (segments.length === 1 && segments[0] === "*") continue;
    const live = entry.id ? LIVE_ROUTES[entry.id.replace(/-(en|zh)$/, "")] : undefined;
    const at = live ? segments.indexOf(`:${live.param}`) : -1;
    out.push({ segments, live: live && at >= 0 ? { kind: live.kind, at } : null });
  }
  return out;
}

/** Adds `pattern` (and, unless it has one, its /en and /zh forms) to the tree. */
function addPattern(root: Node, pattern: Pattern): void {
  const prefixed = pattern.segments[0] === "en" || pattern.segments[0] === "zh";
  const forms = prefixed
    ? [pattern]
    : [
        pattern,
        ...["en", "zh"].map((lang) => ({
          segments: [lang, ...pattern.segments],
          live: pattern.live ? { ...pattern.live, at: pattern.live.at + 1 } : null,
        })),
      ];
  for (const form of forms) {
    let node = root;
    let splat = false;
    for (const raw of form.segments) {
      if (raw === "*") {
        splat = true;
        break;
      }
      // An optional segment ("lang?") would make two patterns; the table has none: reserved as given.
      const segment = raw.replace(/\?$/, "");
      if (segment.startsWith(":")) {
        node.param ??= newNode();
        node = node.param;
      } else {
        const key = segment.toLowerCase();
        let next = node.literal.get(key);
        if (!next) {
          next = newNode();
          node.literal.set(key, next);
        }
        node = next;
      }
    }
    if (splat) node.splat = true;
    // A path both reserved and live (never so today) stays reserved.
    else if (!node.end || node.end.live) node.end = { live: form.live };
  }
}

function buildTree(entries: readonly RouteConfigEntry[]): Node {
  const root = newNode();
  for (const pattern of patternsOf(entries)) addPattern(root, pattern);
  for (const path of OUTSIDE_ROUTER) addPattern(root, { segments: path.split("/"), live: null });
  return root;
}

export type FromClass = { kind: "free" } | { kind: "reserved" } | { kind: "live"; ref: LiveRef };

/**
 * What the site does at a normalised path (lower case, escapes decoded, as `normalizeFrom`
 * makes it): nothing ("free": a redirect may start there), answers it whatever happens
 * ("reserved"), or shows a post, term, series or author there while it exists ("live").
 * The home pages are reserved only without a query: `/?p=123` is an old WordPress link.
 */
export function classifyFrom(tree: Node, key: RedirectKey): FromClass {
  const segments = key.path.split("/").filter((s) => s !== "");
  let best: FromClass = { kind: "free" };
  const walk = (node: Node, at: number): boolean => {
    if (node.splat) {
      best = { kind: "reserved" };
      return true;
    }
    if (at === segments.length) {
      if (!node.end) return false;
      if (node.end.live) {
        const value = segments[node.end.live.at] ?? "";
        if (best.kind === "free") best = { kind: "live", ref: { kind: node.end.live.kind, value } };
        return false;
      }
      best = { kind: "reserved" };
      return true;
    }
    const segment = segments[at] ?? "";
    const literal = node.literal.get(segment);
    if (literal && walk(literal, at + 1)) return true;
    return node.param ? walk(node.param, at + 1) : false;
  };
  walk(tree, 0);
  const home = segments.length === 0 || (segments.length === 1 && (segments[0] === "en" || segments[0] === "zh"));
  if (home && key.query !== "") return { kind: "free" };
  return best;
}

let siteTree: Node | null = null;
/** The tree of this site's route table, made on first use. */
function tree(): Node {
  siteTree ??= buildTree(routes);
  return siteTree;
}

/** Whether the site answers `key` itself whatever the database holds (the HTTP step's check on load). */
export function isReservedFrom(key: RedirectKey): boolean {
  return classifyFrom(tree(), key).kind === "reserved";
}

/** The post, term, series or author shown at `key`, when it is such an address. */
export function liveRefOf(key: RedirectKey): LiveRef | null {
  const found = classifyFrom(tree(), key);
  return found.kind === "live" ? found.ref : null;
}

/**
 * Whether the post, term, series, author or page named by `ref` exists, so its page answers: a
 * post not in the trash (a draft too, it may go live), any category, tag, series, author or page
 * with that slug or handle (addresses are matched in lower case, as the slugs and handles are written).
 */
export async function liveContentAt(db: DB, ref: LiveRef): Promise<boolean> {
  const value = ref.value;
  let row: unknown;
  switch (ref.kind) {
    case "post":
      row = await db
        .selectFrom("posts")
        .select("id")
        .where("id", "=", value)
        .where("deletedAt", "is", null)
        .executeTakeFirst();
      break;
    case "category":
      row = await db.selectFrom("categories").select("id").where("slug", "=", value).executeTakeFirst();
      break;
    case "tag":
      row = await db.selectFrom("tags").select("id").where("slug", "=", value).executeTakeFirst();
      break;
    case "series":
      row = await db.selectFrom("series").select("id").where("slug", "=", value).executeTakeFirst();
      break;
    case "author":
      row = await db.selectFrom("users").select("id").where("handle", "=", value).executeTakeFirst();
      break;
    case "page":
      // A draft too: it may be published (decision 035).
      row = await db.selectFrom("pages").select("id").where("slug", "=", value).executeTakeFirst();
      break;
  }
  return row !== undefined;
}

export type FromRefusal = "fromReserved" | "fromLive";

/**
 * The one check every writer of a redirect makes on its from-path (the admin form, the CSV
 * import, the importers, through `saveRedirect` and `importRedirectsInto`): null when a
 * redirect may start there; "fromReserved" for a path the site answers itself (every route
 * in app/routes.ts, with its /en and /zh forms, and what is served before routing);
 * "fromLive" for the address of a post, term, series or author that exists.
 */
export async function redirectFromRefusal(db: DB, key: RedirectKey): Promise<FromRefusal | null> {
  const found = classifyFrom(tree(), key);
  if (found.kind === "reserved") return "fromReserved";
  if (found.kind === "live" && (await liveContentAt(db, found.ref))) return "fromLive";
  return null;
}

/** For tests: the tree of any route table. */
export const reservedTreeOf = buildTree;
