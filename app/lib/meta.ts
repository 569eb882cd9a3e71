import type { MetaDescriptor } from "react-router";
import { createI18n } from "./i18n/i18n.ts";
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
 * page title becomes "{page} · {site}", and `extra` is appended.
 */
export function pageMeta(
  matches: ReadonlyArray<MatchLike | undefined>,
  titleKey: string | null,
  extra: MetaDescriptor[] = [],
): MetaDescriptor[] {
  const root = matches.find((m) => m?.id === "root")?.meta ?? [];
  const { t } = createI18n(rootLocale(matches));
  const rootData = matches.find((m) => m?.id === "root")?.loaderData;
  const configured =
    rootData && typeof rootData === "object" && "site" in rootData && rootData.site && typeof rootData.site === "object"
      ? (rootData.site as { name?: unknown }).name
      : undefined;
  const site = typeof configured === "string" ? configured : t("siteName");
  const title = titleKey ? `${t(titleKey as "siteName")} · ${site}` : site;
  const inherited = root.filter((d) => !("title" in d) && !("property" in d && d.property === "og:title"));
  return [{ title }, { property: "og:title", content: title }, ...inherited, ...extra];
}

export const NOINDEX: MetaDescriptor = { name: "robots", content: "noindex" };
