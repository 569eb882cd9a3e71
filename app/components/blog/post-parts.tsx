import { useTranslation } from "react-i18next";
import { Link } from "../../lean/link.tsx";
import { formatDate } from "../../lib/format.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { BODY_IMAGE_SIZES, type MediaImage } from "../../lib/media.ts";
import type { PostDetail, PostLink, PostTranslationView } from "../../server/posts/post-detail.server.ts";
import type { SeriesBox, SeriesPart } from "../../server/taxonomy/series.server.ts";

// The parts of a post page around its body (routes/blog/post-detail.tsx).

const BADGE = "inline-block rounded px-2 py-0.5 text-sm font-medium";
const LINK = "text-blue-700 underline dark:text-blue-400";

/** What the heading shows of a post (the body travels apart, as a document part). */
type HeadedPost = Pick<
  PostDetail,
  | "id"
  | "status"
  | "deletedAt"
  | "publishedAt"
  | "updatedAt"
  | "isFallback"
  | "authorName"
  | "authorHandle"
  | "viewCount"
  | "category"
  | "locales"
> & {
  translation: Pick<PostTranslationView, "locale" | "title" | "readingMinutes"> & {
    /** A Chinese title's runs, to break only between (app/server/render/title-breaks.server.ts). */
    titleRuns?: string[] | null;
  };
};

const otherLocale = (l: Locale): Locale => (l === "en" ? "zh" : "en");

/** The link's language when it is not the page's (a post shown in its other language). */
const linkLang = (l: { isFallback: boolean; locale: Locale }) => (l.isFallback ? HTML_LANG[l.locale] : undefined);

/** The runs of a title with a break point between each two, and nowhere else (`break-keep`). */
function TitleRuns({ runs }: { runs: string[] }) {
  return runs.flatMap((run, i) =>
    // The runs are fixed text in a fixed order: their position is their identity.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    i === 0 ? [run] : [<wbr key={i} />, run],
  );
}

/**
 * The post's heading: state badges for its author or an admin, the note when it is
 * shown in its other language, the title, byline and dates, its category and the
 * link to the other language.
 */
export function PostHeader({
  post,
  locale,
  prefix,
  showViews = false,
}: {
  post: HeadedPost;
  locale: Locale;
  prefix: string;
  /** The view count, for readers too: the owner's choice (admin/brand), off by default. */
  showViews?: boolean;
}) {
  const { t } = useTranslation("post");
  const { translation } = post;
  const other = otherLocale(translation.locale);
  const published = post.publishedAt ? formatDate(post.publishedAt, locale) : null;
  const updated = formatDate(post.updatedAt, locale);
  const link = LINK;
  return (
    <header>
      {(post.deletedAt !== null || post.status !== "published") && (
        <p className="mb-3 flex gap-2" data-testid="post-badges">
          {post.deletedAt !== null && (
            <span className={`${BADGE} bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100`}>
              {t("badge.trashed")}
            </span>
          )}
          {post.status === "draft" && (
            <span className={`${BADGE} bg-zinc-200 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100`}>
              {t("badge.draft")}
            </span>
          )}
          {post.status === "scheduled" && (
            <span className={`${BADGE} bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100`}>
              {t("badge.scheduled", { date: post.publishedAt ? formatDate(post.publishedAt, locale) : "—" })}
            </span>
          )}
        </p>
      )}
      {post.isFallback && (
        <p lang={HTML_LANG[locale]} className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          <span className="rounded bg-zinc-100 px-1.5 py-0.5 dark:bg-zinc-800">
            {t(translation.locale === "en" ? "fallback.en" : "fallback.zh")}
          </span>
        </p>
      )}
      <h1
        id="post-title"
        className={`text-3xl font-bold tracking-tight sm:text-4xl ${translation.titleRuns ? "break-keep" : ""}`}
      >
        {translation.titleRuns ? <TitleRuns runs={translation.titleRuns} /> : translation.title}
      </h1>
      <p
        lang={HTML_LANG[locale]}
        className="mt-3 flex flex-wrap gap-x-3 gap-y-1 text-sm text-zinc-600 dark:text-zinc-400"
      >
        {post.authorName &&
          (post.authorHandle ? (
            // The whole byline is the link: one sentence, not a glued fragment.
            <Link to={`${prefix}/authors/${post.authorHandle}`} rel="author" className={link}>
              {t("byAuthor", { name: post.authorName })}
            </Link>
          ) : (
            <span>{t("byAuthor", { name: post.authorName })}</span>
          ))}
        {post.status === "published" && published && post.publishedAt && (
          <time dateTime={post.publishedAt}>{t("publishedOn", { date: published })}</time>
        )}
        {updated && updated !== published && <time dateTime={post.updatedAt}>{t("updatedOn", { date: updated })}</time>}
        <span>{t("readingTime", { count: translation.readingMinutes })}</span>
        {showViews && <span data-testid="view-count">{t("views", { count: post.viewCount })}</span>}
      </p>
      <p lang={HTML_LANG[locale]} className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {post.category && (
          <span>
            {t("category")}:{" "}
            <Link to={`${prefix}/categories/${post.category.slug}`} className={link}>
              {post.category.name}
            </Link>
          </span>
        )}
        {post.locales.includes(other) && (
          <a href={`/${other}/posts/detail/${post.id}`} hrefLang={other} className={link}>
            {t(other === "en" ? "readIn.en" : "readIn.zh")}
          </a>
        )}
      </p>
    </header>
  );
}

/** Previous / next post, and the related ones. */
export function PostNeighbours({
  neighbours,
  related,
  prefix,
}: {
  neighbours: { previous: PostLink | null; next: PostLink | null };
  related: PostLink[];
  prefix: string;
}) {
  const { t } = useTranslation("post");
  const postHref = (id: string) => `${prefix}/posts/detail/${id}`;
  const link = LINK;
  return (
    <>
      {(neighbours.previous || neighbours.next) && (
        <nav
          aria-label={t("postNav")}
          className="mt-12 grid gap-4 border-t border-zinc-200 pt-6 sm:grid-cols-2 dark:border-zinc-800"
        >
          {neighbours.previous ? (
            <p>
              <span className="block text-sm text-zinc-600 dark:text-zinc-400">{t("previous")}</span>
              <Link
                to={postHref(neighbours.previous.id)}
                rel="prev"
                className={link}
                lang={linkLang(neighbours.previous)}
              >
                {neighbours.previous.title}
              </Link>
            </p>
          ) : (
            <span />
          )}
          {neighbours.next && (
            <p className="sm:text-right">
              <span className="block text-sm text-zinc-600 dark:text-zinc-400">{t("next")}</span>
              <Link to={postHref(neighbours.next.id)} rel="next" className={link} lang={linkLang(neighbours.next)}>
                {neighbours.next.title}
              </Link>
            </p>
          )}
        </nav>
      )}

      {related.length > 0 && (
        <section aria-labelledby="related-title" className="mt-12">
          <h2 id="related-title" className="text-2xl font-semibold">
            {t("related")}
          </h2>
          <ul className="mt-4 space-y-2">
            {related.map((r) => (
              <li key={r.id}>
                <Link to={postHref(r.id)} className={link} lang={linkLang(r)}>
                  {r.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** A series' published parts in order; the one being read is marked, not linked. */
export function SeriesParts({ parts, currentId, prefix }: { parts: SeriesPart[]; currentId: string; prefix: string }) {
  return (
    <ol className="mt-2 list-decimal pl-6">
      {parts.map((p) => (
        <li key={p.id} lang={linkLang(p)}>
          {p.id === currentId ? (
            <b aria-current="page">{p.title}</b>
          ) : (
            <Link to={`${prefix}/posts/detail/${p.id}`} className={LINK}>
              {p.title}
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The series box of a post page: "Part 2 of 5" of which series, and the other published parts. */
export function SeriesBoxNav({ series, postId, prefix }: { series: SeriesBox; postId: string; prefix: string }) {
  const { t } = useTranslation("post");
  return (
    <nav
      aria-labelledby="series-title"
      className="mt-6 rounded-md border border-zinc-200 p-4 text-sm dark:border-zinc-800"
    >
      <h2 id="series-title" className="font-semibold">
        <span className="block text-xs uppercase">{t("series.label")}</span>
        <Link to={`${prefix}/series/${series.slug}`} className={LINK}>
          {series.name}
        </Link>
      </h2>
      {series.current > 0 && <p>{t("series.partOf", { n: series.current, total: series.parts.length })}</p>}
      <SeriesParts parts={series.parts} currentId={postId} prefix={prefix} />
    </nav>
  );
}

/**
 * The author card at the end of a post (issue 48): the author's name, short bio and a link to
 * their page. Nothing for a post without a known author.
 */
export function AuthorCard({
  name,
  handle,
  bio,
  locale,
  prefix,
}: {
  name: string | null;
  handle: string | null;
  bio: string | null;
  locale: Locale;
  prefix: string;
}) {
  const { t } = useTranslation("post");
  if (!name) return null;
  return (
    <aside
      aria-label={t("authorCard.label")}
      lang={HTML_LANG[locale]}
      data-testid="author-card"
      className="mt-10 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("authorCard.label")}</p>
      <p className="mt-1 text-lg font-semibold">{name}</p>
      {bio && <p className="mt-2 whitespace-pre-line text-zinc-700 dark:text-zinc-300">{bio}</p>}
      {handle && (
        <p className="mt-3">
          <Link to={`${prefix}/authors/${handle}`} rel="author" className={LINK}>
            {t("authorCard.more", { name })}
          </Link>
        </p>
      )}
    </aside>
  );
}

/**
 * A post's cover over its body: the upload's sizes when it is one of ours (`image`), the
 * address as it is otherwise, drawn in the 1200×630 frame of a social card. `priority`: the
 * post page's cover, the largest thing its first screen paints.
 */
export function PostCover({
  url,
  alt,
  image,
  priority = false,
}: {
  url: string;
  alt: string;
  image: MediaImage | null;
  priority?: boolean;
}) {
  return (
    <figure className="mt-6">
      <img
        src={image?.src ?? url}
        srcSet={image?.srcSet || undefined}
        sizes={image?.srcSet ? BODY_IMAGE_SIZES : undefined}
        alt={alt}
        width={image?.width ?? 1200}
        height={image?.height ?? 630}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        className="aspect-[1200/630] h-auto w-full rounded-lg bg-zinc-100 object-cover dark:bg-zinc-900"
      />
    </figure>
  );
}
