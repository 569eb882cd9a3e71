import type { Locale } from "../../lib/i18n/locale.ts";
import type { DB } from "../db/db.server.ts";
import { notFoundForReader } from "../posts/not-found.server.ts";
import { markdownModule } from "../render/markdown-load.server.ts";
import { publishedPageBySlug } from "./pages.server.ts";

/** A page as a reader gets it: one language's title, rendered body and description. */
export interface PageView {
  slug: string;
  title: string;
  html: string;
  description: string;
  /** The language shown: the reader's, or the other one when the page has only that. */
  contentLocale: Locale;
}

/**
 * The published page at `/{slug}` in the reader's language (the other language when the
 * page has a title only there), its Markdown rendered and sanitized (cached by text); a
 * missing or unpublished page is the reader's 404.
 */
export async function pageForReader(db: DB, slug: string, locale: Locale): Promise<PageView> {
  const page = await publishedPageBySlug(db, slug);
  if (!page) return notFoundForReader(db, locale);
  const other: Locale = locale === "en" ? "zh" : "en";
  const has = (l: Locale) => (l === "en" ? page.titleEn : page.titleZh) !== "";
  const shown: Locale = has(locale) || !has(other) ? locale : other;
  const { renderMarkdownCached } = await markdownModule();
  return {
    slug: page.slug,
    title: shown === "en" ? page.titleEn : page.titleZh,
    html: renderMarkdownCached(shown === "en" ? page.bodyEn : page.bodyZh),
    description: shown === "en" ? page.descriptionEn : page.descriptionZh,
    contentLocale: shown,
  };
}
