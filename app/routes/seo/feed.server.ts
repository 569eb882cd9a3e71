import { createHash } from "node:crypto";
import type { RouterContextProvider } from "react-router";
import { DEFAULT_LOCALE, localeFromPath } from "../../lib/i18n/locale.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsAnyPost } from "../../server/cache/page-tags.server.ts";
import { latestPostsInLocale } from "../../server/feeds/discovery.server.ts";
import { FEED_CACHE_CONTROL, FEED_SIZE, type FeedInput } from "../../server/feeds/feeds.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";

/**
 * What a feed shows: the language comes from the path alone (`/en/…`, `/zh/…`),
 * never from cookies or headers, so one URL always gives the same document and can
 * be cached; the plain `/rss.xml`, `/atom.xml` and `/feed.json` are in the site's default
 * language (Chinese).
 */
export async function feedInput(request: Request, context: Readonly<RouterContextProvider>): Promise<FeedInput> {
  const { db, env } = getApp(context);
  const locale = localeFromPath(new URL(request.url).pathname) ?? DEFAULT_LOCALE;
  // A feed carries whole posts: an edit of any public post may show in it.
  pageShowsAnyPost(getRequest(context));
  const [settings, posts] = await Promise.all([requestSettings(context), latestPostsInLocale(db, locale, FEED_SIZE)]);
  return {
    publicUrl: env.publicUrl,
    locale,
    siteName: settings.siteName[locale],
    siteDescription: settings.siteDescription[locale],
    posts,
    logo: settings.socialImage || null,
  };
}

/** A strong validator for a document: a hash of its exact bytes. */
export function strongEtag(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Whether an If-None-Match header names this ETag (or `*`). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((v) => v.trim().replace(/^W\//, ""))
    .some((v) => v === etag || v === "*");
}

/**
 * A feed (XML or JSON) or sitemap, with a strong ETag: a reader (or CDN) that already has this
 * exact document gets 304 and no body.
 */
export function xmlResponse(request: Request, body: string, contentType: string): Response {
  const etag = strongEtag(body);
  const headers = { "Content-Type": `${contentType}; charset=utf-8`, "Cache-Control": FEED_CACHE_CONTROL, ETag: etag };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
