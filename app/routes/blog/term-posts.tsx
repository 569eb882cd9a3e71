import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { AdSlot } from "../../components/ads/ad-slot.tsx";
import { Pagination, PostList } from "../../components/blog/post-list.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { parsePageParam } from "../../lib/pagination.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsPosts } from "../../server/cache/page-tags.server.ts";
import { listPublishedPosts } from "../../server/posts/posts.server.ts";
import { adFor } from "../../server/site/ad-slots.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import { findCategoryBySlug, findTagBySlug, termName } from "../../server/taxonomy/taxonomy.server.ts";
import type { Route } from "./+types/term-posts";

export const handle = routePolicy({ cache: "public", js: "lean" });

// `/categories/{slug}` and `/tags/{slug}` (+ `/page/{n}`, and their /en, /zh forms):
// the published posts of one category or tag, newest first, paged like the home page.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = getApp(context);
  const pathname = new URL(request.url).pathname;
  const prefix = getRequest(context).prefix;
  const kind = pathname.slice(prefix.length).startsWith("/categories/") ? "category" : "tag";
  const pageNumber = parsePageParam(params.page);
  // Slugs are short ASCII; anything longer cannot exist and is not worth a query.
  if (pageNumber === null || params.slug.length > 200) throw data(null, { status: 404 });
  const term = kind === "category" ? await findCategoryBySlug(db, params.slug) : await findTagBySlug(db, params.slug);
  if (!term) throw data(null, { status: 404 });
  const locale = getRequest(context).locale;
  const { postsPerPage } = await requestSettings(context);
  const page = await listPublishedPosts(db, {
    locale,
    page: pageNumber,
    pageSize: postsPerPage,
    cachedTotal: true,
    ...(kind === "category" ? { categoryId: term.id } : { tagId: term.id }),
  });
  if (pageNumber > page.pageCount) throw data(null, { status: 404 });
  pageShowsPosts(
    getRequest(context),
    page.items.map((p) => p.id),
  );
  const betweenAd = page.items.length > 3 ? await adFor(context, request, "list_between") : null;
  return { kind, locale, prefix, page, betweenAd, term: { slug: term.slug, name: termName(term, locale) } };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta(matches, loaderData ? { text: loaderData.term.name } : null);
}

export default function TermPosts({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("blog");
  const { kind, locale, prefix, page, betweenAd, term } = loaderData;
  const base = `${prefix}/${kind === "category" ? "categories" : "tags"}/${encodeURIComponent(term.slug)}`;
  return (
    <section aria-labelledby="list-title">
      <p className="text-sm font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        {kind === "category" ? t("categoryLabel") : t("tagLabel")}
      </p>
      <h1 id="list-title" className="text-3xl font-bold tracking-tight">
        {term.name}
      </h1>
      <PostList
        items={page.items}
        locale={locale}
        prefix={prefix}
        emptyText={kind === "category" ? t("emptyCategory") : t("emptyTag")}
        between={betweenAd && <AdSlot ad={betweenAd} />}
      />
      <Pagination page={page} pageHref={(n) => (n === 1 ? base : `${base}/page/${n}`)} />
    </section>
  );
}
