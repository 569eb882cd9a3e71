import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate } from "../../lib/format.ts";
import { localeFromRequest } from "../../lib/i18n/locale.ts";
import { getApp } from "../../server/context.server.ts";
import { listPublishedPosts } from "../../server/repos/posts.server.ts";
import type { Route } from "./+types/home";

export const DEFAULT_PAGE_SIZE = 10;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = getApp(context);
  const locale = localeFromRequest(request);
  const page = await listPublishedPosts(db, { locale, page: 1, pageSize: DEFAULT_PAGE_SIZE });
  return { locale, page };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("blog");
  const { locale, page } = loaderData;
  return (
    <section aria-labelledby="latest-title">
      <h1 id="latest-title" className="text-3xl font-bold tracking-tight">
        {t("latestPosts")}
      </h1>
      {page.items.length === 0 ? (
        <p className="mt-6 text-zinc-600 dark:text-zinc-400">{t("empty")}</p>
      ) : (
        <ol className="mt-6 space-y-8">
          {page.items.map((post) => (
            <li key={post.id}>
              <article lang={post.isFallback ? (post.locale === "en" ? "en-US" : "zh-CN") : undefined}>
                <h2 className="text-xl font-semibold">
                  <Link to={`/posts/detail/${post.id}`} className="hover:underline">
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
    </section>
  );
}
