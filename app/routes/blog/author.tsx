import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { Pagination, PostList } from "../../components/blog/post-list.tsx";
import { HANDLE_MAX, HANDLE_PATTERN } from "../../lib/author-profile.ts";
import { pageMeta } from "../../lib/meta.ts";
import { parsePageParam } from "../../lib/pagination.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { findProfileByHandle } from "../../server/accounts/profiles.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsPosts } from "../../server/cache/page-tags.server.ts";
import { listPublishedPosts } from "../../server/posts/posts.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/author";

export const handle = routePolicy({ cache: "public", js: "lean" });

// `/authors/{handle}` (+ `/page/{n}`, and their /en, /zh forms): a person's name, bio
// and avatar, and their published posts, newest first, paged like the home page.
// Only people with a public post have a page: a commenter's account is not published.
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db, env } = getApp(context);
  const req = getRequest(context);
  const pageNumber = parsePageParam(params.page);
  const wanted = params.handle.toLowerCase();
  if (pageNumber === null || wanted.length > HANDLE_MAX + 8 || !HANDLE_PATTERN.test(wanted)) {
    throw data(null, { status: 404 });
  }
  const profile = await findProfileByHandle(db, wanted);
  if (!profile) throw data(null, { status: 404 });
  const { postsPerPage } = await requestSettings(context);
  const page = await listPublishedPosts(db, {
    locale: req.locale,
    page: pageNumber,
    pageSize: postsPerPage,
    cachedTotal: true,
    authorId: profile.id,
  });
  if (page.total === 0 || pageNumber > page.pageCount) throw data(null, { status: 404 });
  pageShowsPosts(
    req,
    page.items.map((p) => p.id),
  );
  const path = `/authors/${profile.handle}`;
  return {
    locale: req.locale,
    prefix: req.prefix,
    page,
    author: { name: profile.name, handle: profile.handle, bio: profile.bio, image: profile.image },
    feeds: {
      rss: `${env.publicUrl}/${req.locale}${path}/rss.xml`,
      atom: `${env.publicUrl}/${req.locale}${path}/atom.xml`,
      json: `${env.publicUrl}/${req.locale}${path}/feed.json`,
    },
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, null);
  const { author, feeds } = loaderData;
  const extra = [
    ...(author.bio ? [{ name: "description", content: author.bio }] : []),
    { property: "og:type", content: "profile" },
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `${author.name} (RSS)`, href: feeds.rss },
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: `${author.name} (Atom)`,
      href: feeds.atom,
    },
    {
      tagName: "link",
      rel: "alternate",
      type: "application/feed+json",
      title: `${author.name} (JSON Feed)`,
      href: feeds.json,
    },
  ];
  const base = pageMeta(matches, { text: author.name }).filter(
    (d) => !(author.bio && "name" in d && d.name === "description") && !("property" in d && d.property === "og:type"),
  );
  return [...base, ...extra];
}

export default function AuthorPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("blog");
  const { locale, prefix, page, author, feeds } = loaderData;
  const base = `${prefix}/authors/${author.handle}`;
  return (
    <section aria-labelledby="author-name">
      <header className="flex flex-wrap items-start gap-4">
        {author.image && (
          // The name is beside it: the picture adds nothing for a screen reader.
          <img src={author.image} alt="" width={80} height={80} className="h-20 w-20 rounded-full object-cover" />
        )}
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
            {t("author.label")}
          </p>
          <h1 id="author-name" className="text-3xl font-bold tracking-tight">
            {author.name}
          </h1>
          {author.bio && <p className="mt-2 whitespace-pre-line text-zinc-700 dark:text-zinc-300">{author.bio}</p>}
          <p className="mt-2 flex gap-3 text-sm">
            <a href={feeds.rss} className="text-blue-700 underline dark:text-blue-400">
              {t("author.rss")}
            </a>
            <a href={feeds.atom} className="text-blue-700 underline dark:text-blue-400">
              {t("author.atom")}
            </a>
          </p>
        </div>
      </header>
      <h2 className="mt-8 text-xl font-semibold">{t("author.posts", { name: author.name })}</h2>
      <PostList items={page.items} locale={locale} prefix={prefix} emptyText={t("empty")} />
      <Pagination page={page} pageHref={(n) => (n === 1 ? base : `${base}/page/${n}`)} />
    </section>
  );
}
