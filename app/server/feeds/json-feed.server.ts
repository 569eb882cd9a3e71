import { withoutControls } from "../render/post-markup.server.ts";
import {
  absolute,
  absolutizeUrls,
  channelOf,
  FEED_ICON_PATH,
  type FeedInput,
  feedUrl,
  fromFeed,
  homeUrl,
  LANGUAGE_TAG,
  postUrl,
  termsOf,
} from "./feeds.server.ts";

// JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): the same posts, addresses and
// sanitized HTML as the RSS and Atom feeds, as JSON.

export const JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1";
export const JSON_FEED_TYPE = "application/feed+json";

export interface JsonFeedItem {
  id: string;
  url: string;
  title: string;
  content_html: string;
  summary?: string;
  image?: string;
  date_published: string;
  date_modified: string;
  authors?: { name: string }[];
  tags?: string[];
  language: string;
}

export interface JsonFeed {
  version: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  description?: string;
  icon?: string;
  favicon: string;
  language: string;
  items: JsonFeedItem[];
}

/**
 * The feed as an object. An item's `id` is the post's bare address, like the RSS guid and the
 * Atom id; its `url` carries `?utm_source=feed` like their links. Authors are names only.
 */
export function jsonFeedOf(feed: FeedInput): JsonFeed {
  const { publicUrl, locale } = feed;
  const about = channelOf(feed);
  const language = LANGUAGE_TAG[locale];
  return {
    version: JSON_FEED_VERSION,
    title: about.title,
    home_page_url: homeUrl(publicUrl, locale, about.path),
    feed_url: feedUrl(publicUrl, locale, "json", about.path),
    ...(about.description ? { description: about.description } : {}),
    // The same pictures as Atom's logo and icon.
    ...(feed.logo ? { icon: absolute(publicUrl, feed.logo) } : {}),
    favicon: `${publicUrl}${FEED_ICON_PATH}`,
    language,
    items: feed.posts.map((post) => {
      const link = postUrl(publicUrl, locale, post.id);
      const tags = [...termsOf(post).map((t) => t.name), ...(post.series ? [post.series.name] : [])];
      return {
        id: link,
        url: fromFeed(link),
        title: post.title,
        content_html: absolutizeUrls(withoutControls(post.bodyHtml), publicUrl),
        ...(post.summary ? { summary: post.summary } : {}),
        ...(post.cover ? { image: absolute(publicUrl, post.cover.url) } : {}),
        date_published: post.publishedAt,
        date_modified: post.updatedAt,
        ...(post.authorName ? { authors: [{ name: post.authorName }] } : {}),
        ...(tags.length ? { tags } : {}),
        language,
      };
    }),
  };
}

/** The feed's bytes: JSON with `<` escaped, so no part of a post can close a script or comment around it. */
export function buildJsonFeed(feed: FeedInput): string {
  return JSON.stringify(jsonFeedOf(feed)).replaceAll("<", "\\u003c");
}
