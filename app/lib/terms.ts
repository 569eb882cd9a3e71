import type { Locale } from "./i18n/locale.ts";

/** The name to show in a locale (the other language when one is empty). */
export function termName(term: { nameEn: string; nameZh: string }, locale: Locale): string {
  return (locale === "en" ? term.nameEn || term.nameZh : term.nameZh || term.nameEn) ?? "";
}

/** The category columns a post query joins in (every one null for a post without a category). */
export interface CategoryColumns {
  categoryId: string | null;
  categorySlug: string | null;
  categoryNameEn: string | null;
  categoryNameZh: string | null;
}

/** A post row's category as lists and feeds show it, named in `locale`; null when it has none. */
export function categoryOf(row: CategoryColumns, locale: Locale): { id: string; slug: string; name: string } | null {
  if (row.categoryId === null || row.categorySlug === null) return null;
  return {
    id: row.categoryId,
    slug: row.categorySlug,
    name: termName({ nameEn: row.categoryNameEn ?? "", nameZh: row.categoryNameZh ?? "" }, locale),
  };
}

/** Sort keys the admin category/tag list accepts; anything else falls back to the first. */
export const TERM_SORTS = ["order", "name", "slug", "posts", "updated"] as const;
export type TermSort = (typeof TERM_SORTS)[number];

/** Categories and tags share the admin screens; the path says which. */
export type TermKind = "category" | "tag";

export function termKind(request: Request): TermKind {
  return new URL(request.url).pathname.startsWith("/admin/tags") ? "tag" : "category";
}

export const termBasePath = (kind: TermKind): string => (kind === "tag" ? "/admin/tags" : "/admin/categories");
