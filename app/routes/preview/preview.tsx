import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { PostCover, PostHeader, SeriesBoxNav } from "../../components/blog/post-parts.tsx";
import { SanitizedHtml } from "../../components/ui/sanitized-html.tsx";
import { HTML_LANG } from "../../lib/i18n/locale.ts";
import { mediaIdFromUrl } from "../../lib/media.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { mediaImages } from "../../server/media/media.server.ts";
import { postOfPreviewToken, previewPost } from "../../server/posts/preview-links.server.ts";
import { seriesBoxForPost } from "../../server/taxonomy/series.server.ts";
import type { Route } from "./+types/preview";

// `/preview/{token}` (and /en, /zh): a draft, or a live post's pending changes, as it will
// look, for whoever holds the secret link. Never cached, never indexed, linked from nowhere;
// an unknown, expired or revoked token is a 404 like any unknown address.
export const handle = routePolicy({ cache: "none" });

const NO_INDEX_HEADERS = { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store" };

export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = getApp(context);
  const { locale, prefix } = getRequest(context);
  const postId = await postOfPreviewToken(db, params.token);
  if (!postId) throw data(null, { status: 404, headers: NO_INDEX_HEADERS });
  const post = await previewPost(db, postId, locale);
  if (!post) throw data(null, { status: 404, headers: NO_INDEX_HEADERS });
  const [covers, series] = await Promise.all([
    mediaImages(db, [mediaIdFromUrl(post.coverImageUrl) ?? ""]),
    seriesBoxForPost(db, post, locale),
  ]);
  return data(
    {
      locale,
      prefix,
      // The other language's page is not part of the preview: only the version shown.
      post: { ...post, locales: [post.translation.locale] },
      coverImage: covers.get(mediaIdFromUrl(post.coverImageUrl) ?? "") ?? null,
      series,
    },
    { headers: NO_INDEX_HEADERS },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const title = loaderData?.post.translation.title;
  return pageMeta(matches, title ? { text: title } : null, [NOINDEX]);
}

export default function PreviewPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("post");
  const { locale, prefix, post, coverImage, series } = loaderData;
  const { translation } = post;
  return (
    <>
      <p
        role="note"
        data-testid="preview-banner"
        className="mb-6 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      >
        {t("preview.banner")}
      </p>
      <article aria-labelledby="post-title" lang={post.isFallback ? HTML_LANG[translation.locale] : undefined}>
        <PostHeader post={post} locale={locale} prefix={prefix} />
        {series && <SeriesBoxNav series={series} postId={post.id} prefix={prefix} />}
        {post.coverImageUrl && <PostCover url={post.coverImageUrl} alt={post.coverAlt} image={coverImage} />}
        <SanitizedHtml id="post-body" className="markdown mt-8" html={translation.bodyHtml} />
        {post.tags.length > 0 && (
          <footer className="mt-8" lang={HTML_LANG[locale]}>
            <h2 className="sr-only">{t("tags")}</h2>
            <ul aria-label={t("tags")} className="flex flex-wrap gap-2">
              {post.tags.map((tag) => (
                <li key={tag.slug} className="inline-block rounded-full bg-zinc-100 px-3 py-1 text-sm dark:bg-zinc-800">
                  #{tag.name}
                </li>
              ))}
            </ul>
          </footer>
        )}
      </article>
    </>
  );
}
