import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { AdSlot } from "../../components/ads/ad-slot.tsx";
import { type CommentActionResult, Comments } from "../../components/blog/comments.tsx";
import { AuthorCard, PostCover, PostHeader, PostNeighbours, SeriesBoxNav } from "../../components/blog/post-parts.tsx";
import { TranslationNotice, type TranslationNoticeView } from "../../components/blog/translation-notice.tsx";
import { DocumentHtml } from "../../components/document-parts.tsx";
import { useNonce } from "../../components/nonce.tsx";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { isRecordId } from "../../lib/ids.ts";
import { mediaIdFromUrl } from "../../lib/media.ts";
import { contentPageMeta, NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { commentSchema } from "../../lib/schemas/comment.ts";
import { retryAfterHeaders } from "../../server/accounts/guard.server.ts";
import { getUser, requireUser } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsPost, pageShowsPosts, writeChangesPost } from "../../server/cache/page-tags.server.ts";
import {
  commentLimitChecks,
  deleteComment,
  listComments,
  submitComment,
} from "../../server/comments/comments.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { hitAll } from "../../server/http/rate-limit.server.ts";
import { mediaImages } from "../../server/media/media.server.ts";
import { commentMail } from "../../server/notify/comment-mail.server.ts";
import { noticeDeps } from "../../server/notify/notices.server.ts";
import { notFoundForReader } from "../../server/posts/not-found.server.ts";
import {
  canView,
  findNeighbours,
  findPostDetail,
  findRelatedPosts,
  isPublic,
} from "../../server/posts/post-detail.server.ts";
import { titleRuns } from "../../server/render/title-breaks.server.ts";
import { adFor } from "../../server/site/ad-slots.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import { socialCardAddress } from "../../server/social-cards/cards.server.ts";
import { seriesBoxForPost } from "../../server/taxonomy/series.server.ts";
import type { Route } from "./+types/post-detail";
import { safeCover, seoFor } from "./post-seo.ts";

export const handle = routePolicy({ cache: "public", writes: "content", js: "lean" });

/** The post body's element id, and its name among the document's parts. */
const POST_BODY_ID = "post-body";

/** A table of contents is worth its space from this many headings (h2 and h3) on. */
const TOC_MIN_HEADINGS = 3;

/** The path of this request without the client router's `.data` suffix. */
function pagePath(request: Request): string {
  return new URL(request.url).pathname.replace(/\.data$/, "");
}

// /posts/detail/{id} (and /en, /zh): one post in the reader's language (or the
// other one, labelled), its comments, and the posts around it.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const req = getRequest(context);
  const id = params.id ?? "";
  const locale = getRequest(context).locale;
  if (!isRecordId(id)) return notFoundForReader(app.db, locale);
  const [user, post, settings] = await Promise.all([
    getUser(context, request),
    findPostDetail(app.db, id, locale),
    requestSettings(context),
  ]);
  // Not there and not yours to see look the same: never leak that a draft exists.
  if (!post || !canView(post, user)) return notFoundForReader(app.db, locale);

  const open = isPublic(post);
  const [neighbours, related, comments, bottomAd, sideAd, covers, series] = await Promise.all([
    open && post.publishedAt
      ? findNeighbours(app.db, { id: post.id, publishedAt: post.publishedAt }, locale)
      : { previous: null, next: null },
    findRelatedPosts(app.db, post.id, locale),
    listComments(app.db, post.id, user?.id ?? null),
    open ? adFor(context, request, "post_bottom") : null,
    // The layout has one column: the "sidebar" placement sits after the related posts.
    open ? adFor(context, request, "sidebar") : null,
    mediaImages(app.db, [mediaIdFromUrl(post.coverImageUrl) ?? ""]),
    seriesBoxForPost(app.db, post, locale),
  ]);
  // Read with the post (one statement fewer); a post that is not public shows none.
  const { reactions: postReactions, ...postShown } = post;
  const reactions = open ? postReactions : { likes: 0, boosts: 0 };
  if (open) {
    // Kept for a cached copy's later reads even when this request (a prefetch) counts nothing.
    req.effects.viewedPost = post.id;
    if (req.read) app.views.record(post.id, { ip: req.clientIp, userAgent: request.headers.get("user-agent") });
  }
  // A comment on this post drops this page (both languages, every comment page) and no
  // other; an edit of a post shown here by title drops it too.
  pageShowsPost(req, post.id);
  pageShowsPosts(
    req,
    [neighbours.previous, neighbours.next, ...related, ...(series?.parts ?? [])].flatMap((p) => (p ? [p.id] : [])),
  );

  // The social card of the version shown, at its fixed address (drawn by the card job; until
  // then the address sends to the site image).
  const card = open ? socialCardAddress(post.id, post.translation.locale) : null;
  const path = pagePath(request);
  const prefix = getRequest(context).prefix;
  const cover = safeCover(post.coverImageUrl);
  // A document has the body once, as HTML: the hydration data leaves it out.
  req.documentParts?.set(POST_BODY_ID, post.translation.bodyHtml);
  // A version written before the other language's last change (issue 47): an admin is always
  // told, readers when the site setting says so. A change of the mark drops this page.
  const { outdated, ...shown } = post.translation;
  const notice: TranslationNoticeView | null =
    outdated && post.locales.length > 1 && (user?.isAdmin || settings.translationNotice)
      ? { source: shown.locale === "en" ? "zh" : "en", audience: user?.isAdmin ? "admin" : "reader" }
      : null;
  const translation = {
    ...shown,
    bodyHtml: req.documentParts ? null : post.translation.bodyHtml,
    // Where a Chinese title may break, segmented here: the browser's ICU may disagree.
    titleRuns: titleRuns(post.translation.title, post.translation.locale),
  };
  const access = !open ? "closed" : !user ? "signIn" : !user.emailVerified ? "verify" : "open";
  return {
    locale,
    prefix,
    path,
    post: { ...postShown, translation, coverImageUrl: cover, viewCount: post.viewCount + app.views.pending(post.id) },
    coverImage: covers.get(mediaIdFromUrl(cover) ?? "") ?? null,
    isPublic: open,
    neighbours,
    related,
    comments,
    // Likes and boosts from the Fediverse; a change drops this page like a comment does.
    reactions,
    access,
    viewer: user ? { id: user.id, isAdmin: user.isAdmin } : null,
    // Left out when there is none: a post page's data is part of its weight.
    ...(series ? { series } : {}),
    ...(notice ? { notice } : {}),
    seo: seoFor(post, app.env.publicUrl, settings.siteName[locale], cover, series, card),
    // Readers see the view count only when the owner shows it (admin/brand).
    showViews: settings.appearance.viewCounts,
    bottomAd,
    sideAd,
  } as const;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const user = await requireUser(context, request);
  const id = params.id ?? "";
  if (!isRecordId(id)) throw data(null, { status: 404 });
  const locale = getRequest(context).locale;
  const post = await findPostDetail(app.db, id, locale);
  if (!post || !canView(post, user)) throw data(null, { status: 404 });
  // Every intent here changes this post's comments: only its pages leave the cache.
  writeChangesPost(getRequest(context), post.id);

  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const path = pagePath(request);
  const flash = (key: "post:flash.commentPosted" | "post:flash.commentPending" | "post:flash.commentDeleted") =>
    flashHeaders(flashOptions(app.env), "success", key);

  if (intent === "delete") {
    const commentId = String(form.get("commentId") ?? "").slice(0, 64);
    const deleted = await deleteComment(app.db, { postId: post.id, commentId, userId: user.id, isAdmin: user.isAdmin });
    if (!deleted) {
      return data<CommentActionResult>({ intent, formError: "post:comments.errors.deleteFailed" }, { status: 403 });
    }
    return redirect(`${path}#comments`, { headers: flash("post:flash.commentDeleted") });
  }

  if (intent !== "comment" && intent !== "reply") throw data(null, { status: 400 });
  const rawParent = intent === "reply" ? String(form.get("parentId") ?? "").slice(0, 64) : null;
  const fail = (result: Omit<CommentActionResult, "intent" | "parentId">, status: number) =>
    data<CommentActionResult>({ intent, parentId: rawParent, ...result }, { status });

  if (!user.emailVerified) return fail({ fieldErrors: { body: "post:comments.errors.verifyFirst" } }, 403);
  const parsed = validate(commentSchema, form);
  if (!parsed.ok)
    return fail({ fieldErrors: { body: parsed.errors.body ?? "post:comments.errors.bodyRequired" } }, 400);
  if (intent === "reply" && !rawParent)
    return fail({ fieldErrors: { body: "post:comments.errors.parentNotFound" } }, 400);

  const limit = await hitAll(app.rateLimits, commentLimitChecks(user.id, app.env.rateLimitMultiplier));
  if (!limit.allowed) {
    return data<CommentActionResult>(
      {
        intent,
        parentId: rawParent,
        fieldErrors: { body: "post:comments.errors.tooManyRequests" },
        retryAfter: limit.retryAfterSeconds,
      },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }

  const settings = await requestSettings(context);
  const result = await submitComment(
    app.db,
    {
      postId: post.id,
      authorId: user.id,
      body: parsed.data.body,
      parentId: rawParent,
      honeypot: parsed.data.website,
      moderation: settings.commentModeration,
      trusted: user.isAdmin,
      locale: getRequest(context).locale,
    },
    app.comments,
    commentMail(noticeDeps(app), settings.moderationNotice),
  );
  if (!result.ok) return fail({ fieldErrors: { body: `post:comments.errors.${result.error}` } }, 400);
  if (!result.id) getRequest(context).log.info("comment honeypot filled; comment dropped");
  const anchor = result.id ? `#comment-${result.id}` : "#comments";
  const key = result.status === "pending" ? "post:flash.commentPending" : "post:flash.commentPosted";
  return redirect(`${path}${anchor}`, { headers: flash(key) });
}

export const headers = retryAfterHeaders;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, "errors.notFoundTitle", [NOINDEX]);
  const { seo, isPublic: open } = loaderData;
  const og = (property: string, content: string) => ({ property, content });
  return contentPageMeta(matches, seo.title, [
    ...(seo.description
      ? [{ name: "description", content: seo.description }, og("og:description", seo.description)]
      : []),
    og("og:title", seo.title),
    og("og:type", "article"),
    og("og:url", seo.canonical),
    og("og:locale", seo.contentLocale === "en" ? "en_US" : "zh_CN"),
    ...seo.otherLocales.map((l) => og("og:locale:alternate", l === "en" ? "en_US" : "zh_CN")),
    // The post's own card (the site image until the card job has drawn it).
    ...(seo.card
      ? [
          og("og:image", seo.card.url),
          og("og:image:type", seo.card.contentType),
          og("og:image:width", String(seo.card.width)),
          og("og:image:height", String(seo.card.height)),
          og("og:image:alt", seo.card.alt),
          { name: "twitter:image", content: seo.card.url },
          { name: "twitter:image:alt", content: seo.card.alt },
        ]
      : []),
    ...(seo.publishedTime ? [og("article:published_time", seo.publishedTime)] : []),
    og("article:modified_time", seo.modifiedTime),
    ...seo.tags.map((tag) => og("article:tag", tag)),
    { tagName: "link", rel: "canonical", href: seo.canonical },
    ...(seo.authorUrl ? [{ tagName: "link", rel: "author", href: seo.authorUrl }] : []),
    ...seo.alternates.map((a) => ({ tagName: "link", rel: "alternate", hrefLang: a.hrefLang, href: a.href })),
    ...(open ? [] : [NOINDEX]),
  ]);
}

function JsonLd({ json }: { json: string }) {
  const nonce = useNonce();
  return (
    // Data, not code; `<` is escaped (jsonForScript). React writes script text as is.
    <script type="application/ld+json" nonce={nonce} suppressHydrationWarning>
      {json}
    </script>
  );
}

/** The post's headings as links: the `nav` both the side column and the `<details>` hold. */
function TocList({
  toc,
  locale,
  contentLocale,
  heading = false,
}: {
  toc: { id: string; text: string; depth: number }[];
  locale: Locale;
  contentLocale: Locale;
  heading?: boolean;
}) {
  const { t } = useTranslation("post");
  return (
    <nav aria-label={t("toc")} lang={HTML_LANG[contentLocale]}>
      {heading && (
        <h2 className="font-semibold" lang={HTML_LANG[locale]}>
          {t("toc")}
        </h2>
      )}
      <ol className={`space-y-1.5 ${heading ? "mt-2" : ""}`}>
        {toc.map((entry) => (
          <li key={entry.id} className={entry.depth === 3 ? "ms-4" : undefined}>
            <a href={`#${entry.id}`} className="hover:underline">
              {entry.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** "3 likes · 2 boosts from the Fediverse", the zero parts left out; nothing at all when both are zero. */
function FediverseReactions({ likes, boosts }: { likes: number; boosts: number }) {
  const { t } = useTranslation("post");
  if (likes === 0 && boosts === 0) return null;
  const parts = [
    likes > 0 ? t("fediverseReactions.likes", { count: likes }) : null,
    boosts > 0 ? t("fediverseReactions.boosts", { count: boosts }) : null,
  ].filter((p): p is string => p !== null);
  return (
    <p className="mt-8 text-sm text-zinc-600 dark:text-zinc-400" data-testid="fediverse-reactions">
      {t("fediverseReactions.line", { parts: parts.join(" · ") })}
    </p>
  );
}

export default function PostDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("post");
  const {
    locale,
    prefix,
    path,
    post,
    coverImage,
    neighbours,
    related,
    comments,
    reactions,
    access,
    viewer,
    seo,
    bottomAd,
    sideAd,
    series,
    showViews,
  } = loaderData;
  const { translation } = post;
  const contentLang = HTML_LANG[translation.locale];
  const hasToc = translation.toc.length >= TOC_MIN_HEADINGS;

  return (
    <>
      <article aria-labelledby="post-title" lang={post.isFallback ? contentLang : undefined}>
        <PostHeader post={post} locale={locale} prefix={prefix} showViews={showViews} />

        {series && <SeriesBoxNav series={series} postId={post.id} prefix={prefix} />}

        {"notice" in loaderData && loaderData.notice && (
          <TranslationNotice
            notice={loaderData.notice}
            editHref={viewer?.isAdmin ? `${prefix}/posts/edit/${post.id}` : null}
          />
        )}

        {post.coverImageUrl && <PostCover url={post.coverImageUrl} alt={post.coverAlt} image={coverImage} priority />}

        {/* Wide screens: the contents in a sticky column beside the text. Narrower: a closed
            <details> above it. Both are in the markup and CSS picks one, so nothing moves
            once the page is painted and neither needs script. */}
        <div className={hasToc ? "xl:grid xl:grid-cols-[minmax(0,1fr)_13rem] xl:gap-x-10" : undefined}>
          {hasToc && (
            <aside className="hidden xl:col-start-2 xl:row-start-1 xl:block" data-testid="toc-column">
              <div className="sticky top-20 mt-8 max-h-[calc(100vh-6rem)] overflow-y-auto border-s border-zinc-200 ps-4 text-sm dark:border-zinc-800">
                <TocList toc={translation.toc} locale={locale} contentLocale={translation.locale} heading />
              </div>
            </aside>
          )}
          <div className="min-w-0 xl:col-start-1 xl:row-start-1">
            {hasToc && (
              <details
                className="group mt-6 rounded-md border border-zinc-200 text-sm xl:hidden dark:border-zinc-800"
                data-testid="toc-details"
              >
                <summary
                  lang={HTML_LANG[locale]}
                  className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-md px-4 py-2 font-semibold hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-zinc-900 [&::-webkit-details-marker]:hidden"
                >
                  {t("toc")}
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 20 20"
                    className="h-4 w-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none"
                    fill="currentColor"
                  >
                    <path d="M5.5 7.5 10 12l4.5-4.5z" />
                  </svg>
                </summary>
                <div className="border-t border-zinc-200 px-4 pt-2 pb-3 dark:border-zinc-800">
                  <TocList toc={translation.toc} locale={locale} contentLocale={translation.locale} />
                </div>
              </details>
            )}

            <DocumentHtml id={POST_BODY_ID} className="markdown mt-8" html={translation.bodyHtml} />
            <AdSlot ad={bottomAd} className="mt-8" />

            {post.tags.length > 0 && (
              <footer className="mt-8" lang={HTML_LANG[locale]}>
                <h2 className="sr-only">{t("tags")}</h2>
                <ul aria-label={t("tags")} className="flex flex-wrap gap-2">
                  {post.tags.map((tag) => (
                    <li key={tag.slug}>
                      <Link
                        to={`${prefix}/tags/${tag.slug}`}
                        className="inline-block rounded-full bg-zinc-100 px-3 py-1 text-sm hover:underline dark:bg-zinc-800"
                      >
                        #{tag.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </footer>
            )}
            <AuthorCard
              name={post.authorName}
              handle={post.authorHandle}
              bio={post.authorBio}
              locale={locale}
              prefix={prefix}
            />
          </div>
        </div>
      </article>

      <FediverseReactions likes={reactions.likes} boosts={reactions.boosts} />

      <PostNeighbours neighbours={neighbours} related={related} prefix={prefix} />
      <AdSlot ad={sideAd} className="mt-12" />

      <Comments
        comments={comments}
        viewer={viewer}
        access={access}
        locale={locale}
        loginHref={`${prefix}/login?redirectTo=${encodeURIComponent(`${path}#comments`)}`}
        accountHref={`${prefix}/account`}
        result={actionData}
        postAuthorId={post.authorId}
      />
      <JsonLd json={seo.jsonLd} />
    </>
  );
}
