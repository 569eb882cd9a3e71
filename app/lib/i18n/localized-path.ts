import { type LocalePrefix, localePrefix } from "./locale.ts";

/**
 * The first path segments that have /en/… and /zh/… forms (`localized()` in app/routes.ts),
 * "" being the home page. A link to anything else (the admin, /logout, /locale, the ad
 * counter, the API, media, assets, sitemaps) is the same in every language and keeps its
 * path. The admin has prefixed forms too, but they only redirect to /admin: a link there
 * would cost a hop. `localized-path.test.ts` holds this list to the route table.
 */
export const LOCALIZED_SECTIONS: ReadonlySet<string> = new Set([
  "",
  "posts",
  "search",
  "categories",
  "tags",
  "series",
  "authors",
  "preview",
  "login",
  "register",
  "forgot-password",
  "reset-password",
  "verify-email",
  "account",
  "links",
  "about",
  "privacy",
  "contact",
  "subscribe",
  "unsubscribe",
  "notifications",
  "solana",
  "rss.xml",
  "atom.xml",
  "feed.json",
  // An owner's page, `/{slug}` (decision 035): every one-segment path not in PLAIN_PAGES.
  ":slug",
]);

/**
 * One-segment paths the route table answers without language forms: a link there keeps its
 * path. Any other one-segment path without a dot (a file) is an owner's page, which has them.
 */
export const PLAIN_PAGES: ReadonlySet<string> = new Set([
  "admin",
  "api",
  "ads",
  "logout",
  "setup",
  "locale",
  "sitemaps",
  "media",
  "assets",
  "ap",
  "nodeinfo",
  "healthz",
  "readyz",
  "builds",
  "cards",
]);

/**
 * A site path as a link on a page under `prefix` ("/en", "/zh" or "") writes it: a page that
 * has language forms gets the page's prefix, so a reader who came in through /zh stays in
 * Chinese whatever their browser asks for (issue 49). A path that already names a language (a
 * link to the other language's copy), an external or relative address, and a path with no
 * language forms are returned as they are.
 */
export function localizePath(to: string, prefix: LocalePrefix): string {
  if (!prefix || !to.startsWith("/") || to.startsWith("//") || localePrefix(to)) return to;
  const end = to.search(/[?#]/);
  const path = end < 0 ? to : to.slice(0, end);
  const rest = end < 0 ? "" : to.slice(end);
  const section = path.slice(1).split("/", 1)[0] ?? "";
  const lower = section.toLowerCase();
  const page = path.indexOf("/", 1) < 0 && !lower.includes(".") && !PLAIN_PAGES.has(lower);
  if (!page && !LOCALIZED_SECTIONS.has(lower)) return to;
  // The home page of a language is /zh, not /zh/ (one address per page).
  return path === "/" ? `${prefix}${rest}` : `${prefix}${path}${rest}`;
}

/**
 * The links in sanitized HTML (a post, a comment, a page's Markdown), written by `localizePath`:
 * `[about](/about)` in a post read under /zh leads to /zh/about. The HTML is the serializer's
 * (every attribute in double quotes), so a link's `href` is found as `<a … href="…"`.
 */
export function localizeHtmlLinks(html: string, prefix: LocalePrefix): string {
  if (!prefix || !html.includes('href="/')) return html;
  return html.replace(
    /(<a\s[^>]*?\bhref=")(\/[^"]*)"/g,
    (_, start: string, href: string) => `${start}${localizePath(href, prefix)}"`,
  );
}
