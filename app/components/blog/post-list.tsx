import { Fragment, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../lean/link.tsx";
import { formatDate } from "../../lib/format.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import type { MediaImage } from "../../lib/media.ts";

/** A category or tag on a list item, named in the visitor's language. */
export interface PostListTerm {
  id: string;
  slug: string;
  name: string;
}

/** One post of a list (the shape of `PostSummary` from the posts repository). */
export interface PostListItem {
  id: string;
  publishedAt: string | null;
  locale: Locale;
  isFallback: boolean;
  title: string;
  summary: string;
  readingMinutes: number;
  category: PostListTerm | null;
  tags: PostListTerm[];
  coverImageUrl: string | null;
  coverAlt: string;
  coverImage?: MediaImage | null;
}

export interface PostListPage {
  items: PostListItem[];
  page: number;
  pageCount: number;
}

export type HomeLayout = "list" | "grid" | "hero";

/** Items before the "between" slot. */
const BETWEEN_AFTER = 3;

const chip =
  "rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 hover:underline focus-visible:underline dark:bg-zinc-800 dark:text-zinc-300";

/**
 * Covers of the first cards load at once (on a phone the third card still shows in
 * the first screen); the rest only as they near the screen.
 */
const EAGER_COVERS = 3;

/**
 * Published posts as the home page and the category and tag pages show them:
 * title, date, reading time, category, tags, summary and the cover thumbnail.
 * `prefix` is "", "/en" or "/zh", kept on every link.
 */
export function PostList({
  items,
  locale,
  prefix,
  emptyText,
  between,
  layout = "list",
}: {
  items: PostListItem[];
  locale: Locale;
  prefix: string;
  emptyText: string;
  /** Shown after the third item when more follow (the "between list items" ad). */
  between?: ReactNode;
  /**
   * The home page's layout (admin/brand): this list; a grid of cards; or the first post as a
   * large "hero" above the list. A post without a cover never gets an empty picture frame.
   */
  layout?: HomeLayout;
}) {
  const { t } = useTranslation("blog");
  if (items.length === 0) return <p className="mt-6 text-zinc-600 dark:text-zinc-400">{emptyText}</p>;
  if (layout === "grid") return <PostGrid items={items} locale={locale} prefix={prefix} between={between} />;
  if (layout === "hero") {
    const [first, ...rest] = items;
    return (
      <>
        {first && <PostHero post={first} locale={locale} prefix={prefix} />}
        {rest.length > 0 && <PostList items={rest} locale={locale} prefix={prefix} emptyText="" between={between} />}
      </>
    );
  }
  // The first cover on the first screen is often the page's largest paint: fetched first.
  const firstCover = items.findIndex((post) => post.coverImageUrl);
  return (
    <ol className="mt-6 space-y-8">
      {items.map((post, index) => (
        <Fragment key={post.id}>
          {index === BETWEEN_AFTER && between && <li>{between}</li>}
          <li>
            <article lang={post.isFallback ? HTML_LANG[post.locale] : undefined} className="flex gap-4">
              <div className="min-w-0 flex-1">
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
                {(post.category || post.tags.length > 0) && (
                  // Term names are in the visitor's language even when the post is not.
                  <div
                    lang={post.isFallback ? HTML_LANG[locale] : undefined}
                    className="mt-2 flex flex-wrap items-center gap-2 text-sm"
                  >
                    {post.category && (
                      <Link to={`${prefix}/categories/${encodeURIComponent(post.category.slug)}`} className={chip}>
                        <span className="sr-only">{t("categoryLabel")} </span>
                        {post.category.name}
                      </Link>
                    )}
                    {post.tags.length > 0 && (
                      <ul aria-label={t("tagsLabel")} className="flex flex-wrap gap-2">
                        {post.tags.map((tag) => (
                          <li key={tag.id}>
                            {/* 24 px tall: a tap target of its own (WCAG 2.5.8), not a 17 px line of small text. */}
                            <Link
                              to={`${prefix}/tags/${encodeURIComponent(tag.slug)}`}
                              className="inline-flex min-h-6 items-center text-xs text-blue-700 hover:underline focus-visible:underline dark:text-blue-400"
                            >
                              #{tag.name}
                            </Link>
                          </li>
                        ))}
                      </ul>
                    )}
                  </div>
                )}
              </div>
              {post.coverImageUrl && (
                // A fixed box: the page does not move when the image arrives.
                // self-start: stretched to the card's height, the box would lose its 4:3 shape.
                <div className="aspect-[4/3] w-24 shrink-0 self-start overflow-hidden rounded bg-zinc-100 sm:w-40 dark:bg-zinc-800">
                  <img
                    src={post.coverImage?.src ?? post.coverImageUrl}
                    srcSet={post.coverImage?.srcSet || undefined}
                    sizes={post.coverImage?.srcSet ? "(min-width: 40rem) 10rem, 6rem" : undefined}
                    alt={post.coverAlt}
                    // The first covers are in the first screen (often the largest paint): no lazy wait.
                    loading={index < EAGER_COVERS ? "eager" : "lazy"}
                    fetchPriority={index === firstCover && index < EAGER_COVERS ? "high" : undefined}
                    decoding="async"
                    width={160}
                    height={120}
                    className="h-full w-full object-cover"
                  />
                </div>
              )}
            </article>
          </li>
        </Fragment>
      ))}
    </ol>
  );
}

/**
 * Previous / "Page n of m" / next, shown when there is more than one page.
 * `label` names the navigation when "Pages" is too vague (search results).
 */
export function Pagination({
  page,
  pageHref,
  label,
}: {
  page: Pick<PostListPage, "page" | "pageCount">;
  pageHref: (n: number) => string;
  label?: string;
}) {
  const { t } = useTranslation("blog");
  if (page.pageCount <= 1) return null;
  return (
    <nav aria-label={label ?? t("pagination")} className="mt-10 flex items-center justify-between text-sm">
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
  );
}

/** The date and reading time line of a card. */
function CardMeta({ post, locale }: { post: PostListItem; locale: Locale }) {
  const { t } = useTranslation("blog");
  return (
    <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
      {post.publishedAt && (
        <time dateTime={post.publishedAt}>{t("publishedOn", { date: formatDate(post.publishedAt, locale) })}</time>
      )}
      {" · "}
      {t("readingTime", { count: post.readingMinutes })}
      {post.isFallback && (
        <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800">{t("inOtherLanguage")}</span>
      )}
    </p>
  );
}

/** A cover in a 16:9 box (the box is there before the picture: nothing moves). */
function WideCover({ post, sizes, eager }: { post: PostListItem; sizes: string; eager: boolean }) {
  if (!post.coverImageUrl) return null;
  return (
    <div className="aspect-video w-full overflow-hidden rounded-md bg-zinc-100 dark:bg-zinc-800">
      <img
        src={post.coverImage?.src ?? post.coverImageUrl}
        srcSet={post.coverImage?.srcSet || undefined}
        sizes={post.coverImage?.srcSet ? sizes : undefined}
        alt={post.coverAlt}
        loading={eager ? "eager" : "lazy"}
        fetchPriority={eager ? "high" : undefined}
        decoding="async"
        width={640}
        height={360}
        className="h-full w-full object-cover"
      />
    </div>
  );
}

/** The newest post, large, above the rest of the list (the "hero" home layout). */
function PostHero({ post, locale, prefix }: { post: PostListItem; locale: Locale; prefix: string }) {
  return (
    <article
      lang={post.isFallback ? HTML_LANG[post.locale] : undefined}
      className="mt-6 space-y-3 border-b border-zinc-200 pb-8 dark:border-zinc-800"
      data-testid="post-hero"
    >
      <WideCover post={post} sizes="(min-width: 56rem) 56rem, 100vw" eager />
      <h2 className="text-3xl font-bold tracking-tight">
        <Link to={`${prefix}/posts/detail/${post.id}`} className="hover:underline">
          {post.title}
        </Link>
      </h2>
      <CardMeta post={post} locale={locale} />
      {post.summary && <p className="text-lg text-zinc-700 dark:text-zinc-300">{post.summary}</p>}
    </article>
  );
}

/** Posts as a grid of cards (the "grid" home layout): a cover on top when there is one. */
function PostGrid({
  items,
  locale,
  prefix,
  between,
}: {
  items: PostListItem[];
  locale: Locale;
  prefix: string;
  between?: ReactNode;
}) {
  return (
    <ol className="mt-6 grid gap-6 sm:grid-cols-2" data-testid="post-grid">
      {items.map((post, index) => (
        <Fragment key={post.id}>
          {index === BETWEEN_AFTER && between && <li className="sm:col-span-2">{between}</li>}
          <li>
            <article lang={post.isFallback ? HTML_LANG[post.locale] : undefined} className="space-y-2">
              <WideCover post={post} sizes="(min-width: 40rem) 28rem, 100vw" eager={index < 2} />
              <h2 className="text-xl font-semibold">
                <Link to={`${prefix}/posts/detail/${post.id}`} className="hover:underline">
                  {post.title}
                </Link>
              </h2>
              <CardMeta post={post} locale={locale} />
              {post.summary && <p className="text-zinc-700 dark:text-zinc-300">{post.summary}</p>}
            </article>
          </li>
        </Fragment>
      ))}
    </ol>
  );
}
