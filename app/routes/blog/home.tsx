import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { formatDate } from "../../lib/format.ts";
import { localeFromRequest } from "../../lib/i18n/locale.ts";
import { getApp } from "../../server/context.server.ts";
import { listPublishedPosts } from "../../server/repos/posts.server.ts";
import { requestSettings } from "../../server/request-settings.server.ts";
import type { Route } from "./+types/home";

/** `n` of /posts/page/{n}: a positive integer written plainly, else null (→ 404). */
export function parsePageParam(raw: string | undefined): number | null {
  if (raw === undefined) return 1;
  if (!/^[1-9]\d{0,8}$/.test(raw)) return null;
  return Number(raw);
}

// `/`, `/posts` and `/posts/page/{n}` (and their /en, /zh forms): published posts,
// newest first, in the reader's language.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = getApp(context);
  const pageNumber = parsePageParam(params.page);
  if (pageNumber === null) throw data(null, { status: 404 });
  const locale = localeFromRequest(request);
  const { postsPerPage } = await requestSettings(context);
  const page = await listPublishedPosts(db, { locale, page: pageNumber, pageSize: postsPerPage });
  if (pageNumber > page.pageCount) throw data(null, { status: 404 });
  const prefix = new URL(request.url).pathname.match(/^\/(en|zh)(?=\/|\.data$|$)/)?.[0] ?? "";
  return { locale, page, prefix, isList: params.page !== undefined };
}

export default function PostList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("blog");
  const { locale, page, prefix, isList } = loaderData;
  const pageHref = (n: number) => `${prefix}/posts/page/${n}`;
  return (
    <section aria-labelledby="list-title">
      <h1 id="list-title" className="text-3xl font-bold tracking-tight">
        {isList ? t("allPosts") : t("latestPosts")}
      </h1>
      {page.items.length === 0 ? (
        <p className="mt-6 text-zinc-600 dark:text-zinc-400">{t("empty")}</p>
      ) : (
        <ol className="mt-6 space-y-8">
          {page.items.map((post) => (
            <li key={post.id}>
              <article lang={post.isFallback ? (post.locale === "en" ? "en-US" : "zh-CN") : undefined}>
                <h2 className="text-xl font-semibold">
                  <Link to={`${prefix}/posts/detail/${post.id}`} className="hover:underline">
                    {post.title}
                  </Link>
                </h2>
                <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                  {post.publishedAt && (
                    <time dateTime={post.publishedAt}>
                      {t("publishedOn", { date: formatDate(post.publishedAt, locale) })}
                    </time>
                  )}
                  {" · "}
                  {t("readingTime", { count: post.readingMinutes })}
                  {post.isFallback && (
                    <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800">
                      {t("inOtherLanguage")}
                    </span>
                  )}
                </p>
                {post.summary && <p className="mt-2">{post.summary}</p>}
              </article>
            </li>
          ))}
        </ol>
      )}
      {page.pageCount > 1 && (
        <nav aria-label={t("pagination")} className="mt-10 flex items-center justify-between text-sm">
          {page.page > 1 ? (
            <Link to={pageHref(page.page - 1)} rel="prev" className="text-blue-700 underline dark:text-blue-400">
              {t("previous")}
            </Link>
          ) : (
            <span />
          )}
          <span aria-current="page">{t("pageOf", { page: page.page, count: page.pageCount })}</span>
          {page.page < page.pageCount ? (
            <Link to={pageHref(page.page + 1)} rel="next" className="text-blue-700 underline dark:text-blue-400">
              {t("next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}
