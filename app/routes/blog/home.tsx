import { useTranslation } from "react-i18next";
import { data, useRouteLoaderData } from "react-router";
import { AdSlot } from "../../components/ads/ad-slot.tsx";
import { Pagination, PostList } from "../../components/blog/post-list.tsx";
import { Carousel } from "../../components/carousel.tsx";
import { Link } from "../../lean/link.tsx";
import { mediaIdFromUrl } from "../../lib/media.ts";
import { parsePageParam } from "../../lib/pagination.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import type { loader as rootLoader } from "../../root.tsx";
import { getUser } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsPosts } from "../../server/cache/page-tags.server.ts";
import { changesAt } from "../../server/cache/render-cache.server.ts";
import { mediaImages } from "../../server/media/media.server.ts";
import { listPublishedPosts } from "../../server/posts/posts.server.ts";
import { adFor } from "../../server/site/ad-slots.server.ts";
import { slidesInWindow } from "../../server/site/carousel.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/home";

export const handle = routePolicy({ cache: "public", js: "lean" });

export { parsePageParam };

// `/`, `/posts` and `/posts/page/{n}` (and their /en, /zh forms): published posts,
// newest first, in the reader's language.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = getApp(context);
  const pageNumber = parsePageParam(params.page);
  if (pageNumber === null) throw data(null, { status: 404 });
  const locale = getRequest(context).locale;
  const settings = await requestSettings(context);
  const { postsPerPage } = settings;
  // The total is kept per instance (post-counts.server.ts), with the render cache or without it.
  const page = await listPublishedPosts(db, {
    locale,
    page: pageNumber,
    pageSize: postsPerPage,
    cachedTotal: true,
  });
  if (pageNumber > page.pageCount) throw data(null, { status: 404 });
  pageShowsPosts(
    getRequest(context),
    page.items.map((p) => p.id),
  );
  const pathname = new URL(request.url).pathname;
  const prefix = getRequest(context).prefix;
  // The carousel belongs to the home page only, not to /posts or its pages.
  const isHome = !/\/posts(\/|\.data$|$)/.test(pathname);
  const coverId = isHome ? mediaIdFromUrl(settings.homeCover.src) : null;
  const [carousel, topAd, betweenAd, coverImages] = await Promise.all([
    isHome ? slidesInWindow(db, locale) : { slides: [], nextChange: null },
    isHome ? adFor(context, request, "home_top") : null,
    page.items.length > 3 ? adFor(context, request, "list_between") : null,
    coverId ? mediaImages(db, [coverId]) : null,
  ]);
  // The owner's cover (admin/brand), with its size and variants; an upload since deleted shows nothing.
  const coverImage = coverId ? coverImages?.get(coverId) : undefined;
  const cover = coverImage
    ? { ...coverImage, alt: settings.homeCover.alt[locale].trim() || settings.siteName[locale] }
    : null;
  // A slide whose window opens or closes changes the page by itself.
  changesAt(getRequest(context).effects, carousel.nextChange);
  const { slides } = carousel;
  const slideImages = await mediaImages(
    db,
    slides.flatMap((s) => mediaIdFromUrl(s.imageUrl) ?? []),
  );
  const withImages = slides.map((s) => ({ ...s, image: slideImages.get(mediaIdFromUrl(s.imageUrl) ?? "") ?? null }));
  // A new site's owner is shown where to start; readers get a friendly empty page. Only an
  // empty site asks who is reading (an admin's page is never cached: it has a session).
  const owner = page.total === 0 && (await getUser(context, request))?.isAdmin === true;
  return {
    owner,
    locale,
    page,
    prefix,
    slides: withImages,
    topAd,
    betweenAd,
    // /posts and its pages list every post; the home page greets first.
    isList: !isHome,
    isHome,
    homeLayout: settings.appearance.homeLayout,
    cover,
  };
}

/** The cover spans the main column (54rem inside its padding), or the screen on phones. */
const COVER_SIZES = "(min-width: 56rem) 54rem, calc(100vw - 2rem)";

const START_LINK =
  "inline-flex items-center rounded-md border border-zinc-300 px-4 py-2 font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-900";

/** A site with no post yet: where to start, for its owner; a friendly word for readers. */
function EmptySite({ owner, prefix }: { owner: boolean; prefix: string }) {
  const { t } = useTranslation("blog");
  if (!owner) {
    return (
      <div className="mt-6 space-y-2" data-testid="empty-site">
        <p className="text-lg">{t("emptySite.readerTitle")}</p>
        <p className="text-zinc-600 dark:text-zinc-400">{t("emptySite.readerText")}</p>
      </div>
    );
  }
  return (
    <div className="mt-6 space-y-4 rounded-lg border border-zinc-200 p-6 dark:border-zinc-800" data-testid="empty-site">
      <h2 className="text-xl font-semibold">{t("emptySite.ownerTitle")}</h2>
      <p className="text-zinc-700 dark:text-zinc-300">{t("emptySite.ownerText")}</p>
      <ul className="flex flex-wrap gap-3">
        <li>
          <Link
            to={`${prefix}/posts/createPost`}
            className={`${START_LINK} bg-blue-700 text-white hover:bg-blue-800 dark:bg-blue-600`}
          >
            {t("emptySite.write")}
          </Link>
        </li>
        <li>
          <Link to="/admin/config" className={START_LINK}>
            {t("emptySite.settings")}
          </Link>
        </li>
        <li>
          <Link to="/admin/import" className={START_LINK}>
            {t("emptySite.import")}
          </Link>
        </li>
      </ul>
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("blog");
  const { locale, page, prefix, slides, topAd, betweenAd, isList, isHome, owner, homeLayout, cover } = loaderData;
  // The site's description (admin config) greets readers on the home page.
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  return (
    <>
      {cover && (
        // Its own ratio, its space reserved by width and height (no shift as it loads), cut to at
        // most 60% of the window's height on tall pictures; the page's first picture, so not lazy.
        <img
          src={cover.src}
          srcSet={cover.srcSet || undefined}
          sizes={cover.srcSet ? COVER_SIZES : undefined}
          width={cover.width}
          height={cover.height}
          alt={cover.alt}
          fetchPriority="high"
          data-testid="home-cover"
          className="mb-8 h-auto max-h-[60vh] w-full rounded-lg bg-zinc-100 object-cover dark:bg-zinc-900"
        />
      )}
      {isHome && site?.description && (
        <header className="mb-8" data-testid="site-intro">
          <p className="text-2xl font-semibold tracking-tight">{site.name}</p>
          <p className="mt-1 text-lg text-zinc-700 dark:text-zinc-300">{site.description}</p>
        </header>
      )}
      {slides.length > 0 && <Carousel slides={slides} />}
      <AdSlot ad={topAd} className="mb-8" />
      <section aria-labelledby="list-title">
        <h1 id="list-title" className="text-3xl font-bold tracking-tight">
          {isList ? t("allPosts") : t("latestPosts")}
        </h1>
        {page.total === 0 ? (
          <EmptySite owner={owner} prefix={prefix} />
        ) : (
          <PostList
            items={page.items}
            locale={locale}
            prefix={prefix}
            emptyText={t("empty")}
            between={betweenAd && <AdSlot ad={betweenAd} />}
            // The owner's layout on the home page (admin/brand); the hero only on the first page.
            layout={homeLayout === "hero" && page.page > 1 ? "list" : homeLayout}
          />
        )}
        <Pagination page={page} pageHref={(n) => (n === 1 ? `${prefix}/posts` : `${prefix}/posts/page/${n}`)} />
      </section>
    </>
  );
}
