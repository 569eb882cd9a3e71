/**
 * What a page view is reduced to before anything is counted: a referrer's host (or the
 * name of a well-known search engine or social site), the source our own links name,
 * a two-letter country from the proxy's header, and the kind of page. Nothing else of
 * the request is kept (docs/decisions/021-insights.md).
 */

/** Hosts we name instead of showing, so "google.de" and "www.google.com" add up. */
const NAMED_SITES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\.)google(\.[a-z]{2,3}){1,2}$/, "Google"],
  [/(^|\.)bing\.com$/, "Bing"],
  [/(^|\.)duckduckgo\.com$/, "DuckDuckGo"],
  [/(^|\.)baidu\.com$/, "Baidu"],
  [/(^|\.)yandex(\.[a-z]{2,3}){1,2}$/, "Yandex"],
  [/(^|\.)sogou\.com$/, "Sogou"],
  [/(^|\.)so\.com$/, "360 Search"],
  [/(^|\.)yahoo\.(com|co\.jp)$/, "Yahoo"],
  [/(^|\.)ecosia\.org$/, "Ecosia"],
  [/(^|\.)kagi\.com$/, "Kagi"],
  [/^(t\.co|(.*\.)?twitter\.com|(.*\.)?x\.com)$/, "X (Twitter)"],
  [/(^|\.)(facebook\.com|fb\.com|fb\.me)$/, "Facebook"],
  [/(^|\.)instagram\.com$/, "Instagram"],
  [/(^|\.)(linkedin\.com|lnkd\.in)$/, "LinkedIn"],
  [/(^|\.)reddit\.com$/, "Reddit"],
  [/^news\.ycombinator\.com$/, "Hacker News"],
  [/(^|\.)(youtube\.com|youtu\.be)$/, "YouTube"],
  [/(^|\.)github\.com$/, "GitHub"],
  [/(^|\.)bsky\.app$/, "Bluesky"],
  [/(^|\.)(t\.me|telegram\.org)$/, "Telegram"],
  [/(^|\.)(weibo\.com|weibo\.cn)$/, "Weibo"],
  [/(^|\.)zhihu\.com$/, "Zhihu"],
  [/(^|\.)douban\.com$/, "Douban"],
  [/(^|\.)v2ex\.com$/, "V2EX"],
  [/(^|\.)(weixin\.qq\.com|wechat\.com)$/, "WeChat"],
];

const MAX_KEY = 120;

function hostOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
}

/**
 * The referrer as Insights shows it: a named site, else its host without "www.";
 * null when there is none, it is not a web address, or it is this site (`ownHosts`).
 */
export function referrerOf(referer: string | null | undefined, ownHosts: readonly string[]): string | null {
  if (!referer) return null;
  // Most referrers are this site's own pages: known without parsing the address.
  for (const own of ownHosts) {
    if (referer.startsWith(`https://${own}/`) || referer.startsWith(`http://${own}/`)) return null;
  }
  const host = hostOf(referer);
  if (!host) return null;
  const bare = host.replace(/^www\./, "");
  if (ownHosts.some((own) => own === host || own.replace(/^www\./, "") === bare)) return null;
  for (const [pattern, name] of NAMED_SITES) if (pattern.test(host)) return name;
  return bare.slice(0, MAX_KEY);
}

/** PUBLIC_URL's host, worked out once per address (it is the same on every request). */
const publicHosts = new Map<string, string | null>();

/** The hosts that count as this site: the request's Host (without port) and PUBLIC_URL's. */
export function ownHostsOf(requestHost: string | null | undefined, publicUrl: string): string[] {
  const hosts: string[] = [];
  let fromPublic = publicHosts.get(publicUrl);
  if (fromPublic === undefined) {
    fromPublic = hostOf(publicUrl);
    if (publicHosts.size < 16) publicHosts.set(publicUrl, fromPublic);
  }
  if (fromPublic) hosts.push(fromPublic);
  if (requestHost) {
    const bare = requestHost
      .toLowerCase()
      .replace(/:\d+$/, "")
      .replace(/^\[(.*)\]$/, "$1");
    if (bare && !hosts.includes(bare)) hosts.push(bare);
  }
  return hosts;
}

/** The sources our own links name (`?utm_source=…` or `?ref=…`); anything else is ignored. */
export const INSIGHT_SOURCES = ["feed", "newsletter", "fediverse"] as const;
export type InsightSource = (typeof INSIGHT_SOURCES)[number];

/** The query parameters that only say where a reader came from: the page never depends on them. */
export const SOURCE_PARAMS = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term", "ref"] as const;

/** The source a link of ours names in its query string ("?a=1&utm_source=feed"), or null. */
export function sourceOf(search: string): InsightSource | null {
  if (!search || search === "?") return null;
  const params = new URLSearchParams(search);
  const value = (params.get("utm_source") ?? params.get("ref") ?? "").trim().toLowerCase();
  return (INSIGHT_SOURCES as readonly string[]).includes(value) ? (value as InsightSource) : null;
}

/**
 * A URL (path and query) without the source parameters, so `/posts/x?utm_source=feed`
 * and `/posts/x` are one page in the render cache. Anything else in the query stays.
 */
export function withoutSourceParams(url: string): string {
  const at = url.indexOf("?");
  if (at === -1) return url;
  const query = url.slice(at + 1);
  if (!/(?:^|&)(?:utm_[a-z]+|ref)=/.test(query)) return url;
  const kept = query
    .split("&")
    .filter((pair) => {
      const name = pair.split("=", 1)[0] ?? "";
      return !(SOURCE_PARAMS as readonly string[]).includes(name);
    })
    .join("&");
  return kept ? `${url.slice(0, at)}?${kept}` : url.slice(0, at);
}

/** A country code a proxy passes ("DE"); "XX" (unknown) and anything not two letters are ignored. */
export function countryOf(value: string | null | undefined): string | null {
  if (!value || !/^[A-Za-z]{2}$/.test(value)) return null;
  const code = value.toUpperCase();
  return code === "XX" ? null : code;
}

/**
 * The kind of a public page, from its route id: the language variants ("-en", "-zh")
 * and the paged variants ("-page") are one kind.
 */
export function pageKindOf(routeId: string | null): string {
  if (!routeId) return "other";
  const id = routeId.replace(/-(en|zh)$/, "").replace(/-page$/, "");
  if (id === "posts-home" || id === "posts") return "posts";
  if (id === "post-detail") return "post";
  return id.replace(/^routes\//, "").slice(0, 40);
}

/** A search as counted: trimmed, spaces collapsed, lower case, at most 100 characters. */
export function searchKeyOf(query: string): string {
  return query.replace(/\s+/g, " ").trim().toLowerCase().slice(0, 100);
}

/** A 404's path as counted: without the query, at most 200 characters. */
export function notFoundKeyOf(path: string): string {
  const bare = path.split("?", 1)[0] ?? "";
  return bare.slice(0, 200);
}

/** Feed reader apps named by a word in their User-Agent (the rest are named by their first word). */
const FEED_READERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/feedly/i, "Feedly"],
  [/inoreader/i, "Inoreader"],
  [/newsblur/i, "NewsBlur"],
  [/feedbin/i, "Feedbin"],
  [/theoldreader|the old reader/i, "The Old Reader"],
  [/miniflux/i, "Miniflux"],
  [/tiny ?tiny ?rss|tt-rss/i, "Tiny Tiny RSS"],
  [/freshrss/i, "FreshRSS"],
  [/netnewswire/i, "NetNewsWire"],
  [/reeder/i, "Reeder"],
  [/feedspot/i, "Feedspot"],
  [/bazqux/i, "BazQux"],
  [/feeder/i, "Feeder"],
  [/newsify/i, "Newsify"],
  [/readwise/i, "Readwise Reader"],
  [/feedburner/i, "FeedBurner"],
  [/thunderbird/i, "Thunderbird"],
];

/** The feed routes' page kinds (pageKindOf). */
export const FEED_KINDS: ReadonlySet<string> = new Set([
  "rss",
  "atom",
  "json-feed",
  "author-rss",
  "author-atom",
  "author-json-feed",
]);

/**
 * Who fetched a feed, from the User-Agent: the reader app's name and, when the app reports
 * it ("… 123 subscribers …", as Feedly, Inoreader, NewsBlur and Feedbin do), how many of
 * its users follow the feed. A browser is "Browser"; nothing is null.
 */
export function feedReaderOf(userAgent: string | null | undefined): { app: string; subscribers: number | null } | null {
  const ua = userAgent?.trim() ?? "";
  if (!ua) return null;
  const counted = /(\d{1,9})\s+(?:subscribers?|readers?|users?)\b/i.exec(ua);
  const subscribers = counted ? Number(counted[1]) : null;
  const known = FEED_READERS.find(([pattern]) => pattern.test(ua));
  if (known) return { app: known[1], subscribers };
  if (/^Mozilla\/\d/.test(ua) && !/\+https?:|bot|crawl|spider|fetch/i.test(ua)) return { app: "Browser", subscribers };
  // Otherwise its name: "Miniflux/2.1 (…)" → "Miniflux", "Mozilla/5.0 (compatible; Yeti/1.1 …)" → "Yeti".
  const named = /^Mozilla\/\d/.test(ua) ? (/compatible;\s*([^;)]*)/.exec(ua)?.[1] ?? "") : ua;
  const word = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,39}?(?=[/(;:-]|\s[-(]|$)/u
    .exec(named)?.[0]
    ?.replace(/\s+v?[\d.]+$/, "")
    .trim();
  return { app: word || "Other", subscribers };
}
