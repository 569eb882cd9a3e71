import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import type { PostDetail } from "../../server/posts/post-detail.server.ts";
import type { SocialCard } from "../../server/social-cards/cards.server.ts";
import type { SeriesBox } from "../../server/taxonomy/series.server.ts";

// What a post page tells search engines and link previews: kept beside the route.

/** A cover URL we are willing to put in the page: http(s) or a site-relative path. */
export function safeCover(url: string | null): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\")) return url;
  return null;
}

const absolute = (publicUrl: string, url: string) => (url.startsWith("/") ? `${publicUrl}${url}` : url);

/** JSON for a <script> element: `<` escaped so no `</script>` or `<!--` can end it early. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** The page's title, description, canonical URL, language alternates and JSON-LD. */
export function seoFor(
  post: PostDetail,
  publicUrl: string,
  siteName: string,
  cover: string | null,
  series: Pick<SeriesBox, "slug" | "name"> | null = null,
  card: SocialCard | null = null,
) {
  const { translation } = post;
  const url = (l: Locale) => `${publicUrl}/${l}/posts/detail/${post.id}`;
  const canonical = url(translation.locale);
  const title = translation.seoTitle || translation.title;
  const description = translation.seoDescription || translation.summary || null;
  const image = cover ? absolute(publicUrl, cover) : null;
  const cardUrl = card ? absolute(publicUrl, card.url) : null;
  const images = [cardUrl, image].filter((u): u is string => u !== null);
  const published = post.publishedAt ?? post.createdAt;
  // The author page in the version's language (the byline links it with rel=author too).
  const authorUrl = post.authorHandle ? `${publicUrl}/${translation.locale}/authors/${post.authorHandle}` : null;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: translation.title,
    ...(description ? { description } : {}),
    datePublished: published,
    dateModified: post.updatedAt,
    author: post.authorName
      ? { "@type": "Person", name: post.authorName, ...(authorUrl ? { url: authorUrl } : {}) }
      : { "@type": "Organization", name: siteName },
    ...(images.length > 0 ? { image: images } : {}),
    publisher: { "@type": "Organization", name: siteName, url: `${publicUrl}/${translation.locale}` },
    inLanguage: HTML_LANG[translation.locale],
    mainEntityOfPage: { "@type": "WebPage", "@id": canonical },
    ...(post.tags.length > 0 ? { keywords: post.tags.map((g) => g.name).join(", ") } : {}),
    ...(series
      ? {
          isPartOf: {
            "@type": "CreativeWorkSeries",
            name: series.name,
            url: `${publicUrl}/${translation.locale}/series/${encodeURIComponent(series.slug)}`,
          },
        }
      : {}),
  };
  return {
    title,
    description,
    canonical,
    authorUrl,
    image,
    /** The post's social card (og:image, twitter:image), described for link previews. */
    card: card && cardUrl ? { ...card, url: cardUrl, alt: translation.title } : null,
    contentLocale: translation.locale,
    alternates: [
      ...post.locales.map((l) => ({ hrefLang: l, href: url(l) })),
      { hrefLang: "x-default", href: `${publicUrl}/posts/detail/${post.id}` },
    ],
    otherLocales: post.locales.filter((l) => l !== translation.locale),
    publishedTime: post.publishedAt,
    modifiedTime: post.updatedAt,
    tags: post.tags.map((g) => g.name),
    jsonLd: jsonForScript(jsonLd),
  };
}
