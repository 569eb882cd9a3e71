import { useId } from "react";
import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { Pagination } from "../../components/blog/post-list.tsx";
import { SanitizedHtml } from "../../components/ui/sanitized-html.tsx";
import { Link } from "../../lean/link.tsx";
import { formatDate } from "../../lib/format.ts";
import { HTML_LANG } from "../../lib/i18n/locale.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { MAX_QUERY_LENGTH } from "../../lib/search.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsAnyPost } from "../../server/cache/page-tags.server.ts";
import { searchPosts } from "../../server/search/search.server.ts";
import type { Route } from "./+types/search";

export const handle = routePolicy({ cache: "public", js: "lean" });

const PAGE_SIZE = 10;

/** `?page=`: absent or empty is 1; anything but a plainly written positive integer is null (→ 404). */
export function parseSearchPage(raw: string | null): number | null {
  if (raw === null || raw === "") return 1;
  if (!/^[1-9]\d{0,8}$/.test(raw)) return null;
  return Number(raw);
}

// `/search?q=…&page=n` (and /en, /zh): published posts of both languages matching
// the words of `q`. An empty query shows the form only and runs no search. A page
// past the last one is 404, as on the post lists.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = getApp(context);
  const url = new URL(request.url);
  const pageNumber = parseSearchPage(url.searchParams.get("page"));
  if (pageNumber === null) throw data(null, { status: 404 });
  const locale = getRequest(context).locale;
  const prefix = getRequest(context).prefix;
  const q = (url.searchParams.get("q") ?? "").slice(0, MAX_QUERY_LENGTH).trim();
  if (q === "") return { q, locale, prefix, results: null };
  // Any edit of a public post can change what matches.
  pageShowsAnyPost(getRequest(context));
  const { items, total, capped, page, pageCount } = await searchPosts(db, {
    q,
    locale,
    page: pageNumber,
    pageSize: PAGE_SIZE,
  });
  if (pageNumber > pageCount) throw data(null, { status: 404 });
  // Insights counts the search (its first page: paging on is the same search), cached or not.
  if (pageNumber === 1) getRequest(context).effects.search = { query: q, results: total };
  return { q, locale, prefix, results: { items, total, capped, page, pageCount } };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "search:title", [NOINDEX]);
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("search");
  const { q, locale, prefix, results } = loaderData;
  const inputId = useId();
  const action = `${prefix}/search`;
  const pageHref = (n: number) => `${action}?${new URLSearchParams({ q, page: String(n) })}`;
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title" className="text-3xl font-bold tracking-tight">
        {t("title")}
      </h1>
      <Form method="get" action={action} role="search" className="mt-6">
        <label htmlFor={inputId} className="block text-sm font-medium">
          {t("label")}
        </label>
        <div className="mt-1 flex gap-2">
          <input
            // A new query (back/forward, a link) resets the box to it.
            key={q}
            id={inputId}
            type="search"
            name="q"
            defaultValue={q}
            maxLength={MAX_QUERY_LENGTH}
            enterKeyHint="search"
            className="block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          />
          <button
            type="submit"
            className="shrink-0 whitespace-nowrap rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2 dark:bg-blue-600 dark:hover:bg-blue-700"
          >
            {t("submit")}
          </button>
        </div>
      </Form>

      {results === null ? (
        <p className="mt-6 text-zinc-600 dark:text-zinc-400">{t("prompt")}</p>
      ) : results.total === 0 ? (
        <p role="status" className="mt-6 text-zinc-600 dark:text-zinc-400">
          {t("empty", { query: q })}
        </p>
      ) : (
        <>
          <p role="status" className="mt-6 text-sm text-zinc-600 dark:text-zinc-400">
            {results.capped
              ? t("resultsCapped", { shown: new Intl.NumberFormat(HTML_LANG[locale]).format(results.total), query: q })
              : t("results", { count: results.total, query: q })}
          </p>
          <ol className="mt-4 space-y-8">
            {results.items.map((item) => (
              <li key={item.id}>
                <article lang={item.isFallback ? HTML_LANG[item.locale] : undefined}>
                  <h2 className="text-xl font-semibold">
                    <Link to={`${prefix}/posts/detail/${item.id}`} className="hover:underline">
                      {item.title}
                    </Link>
                  </h2>
                  <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                    {item.publishedAt && (
                      <time dateTime={item.publishedAt}>
                        {t("publishedOn", { date: formatDate(item.publishedAt, locale) })}
                      </time>
                    )}
                    {item.isFallback && (
                      <span
                        lang={HTML_LANG[locale]}
                        className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800"
                      >
                        {item.locale === "en" ? t("inEnglish") : t("inChinese")}
                      </span>
                    )}
                  </p>
                  {item.snippetHtml && (
                    <SanitizedHtml
                      className="mt-2 [&_mark]:rounded-sm [&_mark]:bg-yellow-200 [&_mark]:text-inherit dark:[&_mark]:bg-yellow-500/40"
                      html={item.snippetHtml}
                    />
                  )}
                </article>
              </li>
            ))}
          </ol>
        </>
      )}

      {results && <Pagination page={results} pageHref={pageHref} label={t("pagination")} />}
    </section>
  );
}
