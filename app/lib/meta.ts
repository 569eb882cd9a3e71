import type { MetaDescriptor } from "react-router";
import { i18nFor } from "./i18n/i18n.ts";
import { DEFAULT_LOCALE, isLocale } from "./i18n/locale.ts";

interface MatchLike {
  id: string;
  meta?: MetaDescriptor[] | undefined;
  loaderData?: unknown;
}

function rootLocale(matches: ReadonlyArray<MatchLike | undefined>) {
  const data = matches.find((m) => m?.id === "root")?.loaderData;
  const locale = data && typeof data === "object" && "locale" in data ? data.locale : null;
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/**
 * A route's meta on top of the root's (React Router replaces, not merges): the
 * page title becomes "{page} · {site}", and `extra` is appended. The page title is a
 * translation key, or `{ text }` for a title from the data (a category's name).
 */
export function pageMeta(
  matches: ReadonlyArray<MatchLike | undefined>,
  titleKey: string | { text: string } | null,
  extra: MetaDescriptor[] = [],
): MetaDescriptor[] {
  const root = matches.find((m) => m?.id === "root")?.meta ?? [];
  const { t } = i18nFor(rootLocale(matches));
  const rootData = matches.find((m) => m?.id === "root")?.loaderData;
  const configured =
    rootData && typeof rootData === "object" && "site" in rootData && rootData.site && typeof rootData.site === "object"
      ? (rootData.site as { name?: unknown }).name
      : undefined;
  const site = typeof configured === "string" ? configured : t("siteName");
  const page = typeof titleKey === "string" ? t(titleKey as "siteName") : titleKey?.text;
  const title = page ? `${page} · ${site}` : site;
  // The root's <title> and og:title are replaced; <link> tags with a title attribute (the feeds) stay.
  const inherited = root.filter(
    (d) => !("title" in d && !("tagName" in d)) && !("property" in d && d.property === "og:title"),
  );
  return [{ title }, { property: "og:title", content: title }, ...inherited, ...extra];
}

export const NOINDEX: MetaDescriptor = { name: "robots", content: "noindex" };

/** Whether `a` says the same thing as `b` (same name, property, canonical, or any hreflang alternate). */
function sameSlot(a: MetaDescriptor, b: MetaDescriptor): boolean {
  const r = a as Record<string, unknown>;
  const s = b as Record<string, unknown>;
  if ("name" in r && "name" in s) return r.name === s.name;
  if ("property" in r && "property" in s) return r.property === s.property;
  if (r.tagName === "link" && s.tagName === "link") {
    if (r.rel === "canonical" && s.rel === "canonical") return true;
    if (r.rel === "alternate" && s.rel === "alternate") return "hrefLang" in r && "hrefLang" in s;
  }
  return false;
}

/**
 * Meta for a page whose title is content (a post), not a translation key: the
 * title becomes "{title} · {site}", and every root descriptor that `extra`
 * replaces (same name or property, the canonical link, the hreflang alternates
 * as a set) is dropped in favour of `extra`'s.
 */
export function contentPageMeta(
  matches: ReadonlyArray<MatchLike | undefined>,
  title: string,
  extra: MetaDescriptor[] = [],
): MetaDescriptor[] {
  const [siteTitle, ...base] = pageMeta(matches, null);
  const site = siteTitle && "title" in siteTitle ? String(siteTitle.title) : "";
  const full = site ? `${title} · ${site}` : title;
  const kept = base.filter(
    (d) => !("property" in d && d.property === "og:title") && !extra.some((e) => sameSlot(d, e)),
  );
  const ogTitle = extra.some((e) => "property" in e && e.property === "og:title")
    ? []
    : [{ property: "og:title", content: full }];
  return [{ title: full }, ...ogTitle, ...kept, ...extra];
}
