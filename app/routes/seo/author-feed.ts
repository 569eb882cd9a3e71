import { data } from "react-router";
import { HANDLE_MAX, HANDLE_PATTERN } from "../../lib/author-profile.ts";
import { i18nFor } from "../../lib/i18n/i18n.ts";
import { DEFAULT_LOCALE, localeFromPath } from "../../lib/i18n/locale.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { findProfileByHandle } from "../../server/accounts/profiles.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsAnyPost } from "../../server/cache/page-tags.server.ts";
import { latestPostsInLocale } from "../../server/feeds/discovery.server.ts";
import { buildAtom, buildRss, FEED_SIZE } from "../../server/feeds/feeds.server.ts";
import { buildJsonFeed, JSON_FEED_TYPE } from "../../server/feeds/json-feed.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/author-feed";
import { xmlResponse } from "./feed.server.ts";

export const handle = routePolicy({ cache: "public" });

// GET /authors/{handle}/rss.xml, /atom.xml and /feed.json (and their /en, /zh forms): an author's
// latest posts in one language, like the site's feeds. The language comes from the
// path alone, the plain form is in the site's default language. 404 where the author
// page would be 404 (no such person, or nothing published).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db, env } = getApp(context);
  const pathname = new URL(request.url).pathname;
  const locale = localeFromPath(pathname) ?? DEFAULT_LOCALE;
  const wanted = params.handle.toLowerCase();
  if (wanted.length > HANDLE_MAX + 8 || !HANDLE_PATTERN.test(wanted)) throw data(null, { status: 404 });
  const profile = await findProfileByHandle(db, wanted);
  if (!profile) throw data(null, { status: 404 });
  pageShowsAnyPost(getRequest(context));
  const [settings, posts] = await Promise.all([
    requestSettings(context),
    latestPostsInLocale(db, locale, FEED_SIZE, { authorId: profile.id }),
  ]);
  if (posts.length === 0) {
    // Nothing in this language may still be an author (their posts are in the other one): an empty feed.
    const any = await latestPostsInLocale(db, locale === "en" ? "zh" : "en", 1, { authorId: profile.id });
    if (any.length === 0) throw data(null, { status: 404 });
  }
  const { t } = i18nFor(locale);
  const vars = { name: profile.name, site: settings.siteName[locale] };
  const input = {
    publicUrl: env.publicUrl,
    locale,
    siteName: settings.siteName[locale],
    siteDescription: settings.siteDescription[locale],
    posts,
    logo: settings.socialImage || null,
    scope: {
      title: t("blog:author.feedTitle", vars),
      description: profile.bio || t("blog:author.feedDescription", vars),
      path: `/authors/${profile.handle}`,
    },
  };
  if (pathname.endsWith("/feed.json")) return xmlResponse(request, buildJsonFeed(input), JSON_FEED_TYPE);
  return pathname.endsWith("/atom.xml")
    ? xmlResponse(request, buildAtom(input), "application/atom+xml")
    : xmlResponse(request, buildRss(input), "application/rss+xml");
}
