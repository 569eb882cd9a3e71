/**
 * A URL slug: lower-case ASCII letters, digits and hyphens. Text with no ASCII
 * letters or digits (a Chinese name, say) gives "" and the caller picks another.
 * Shared by the server and the editor (which shows the slug a title would get).
 */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

/** Han characters (CJK unified ideographs and extension A). */
export const HAN = /[\u3400-\u4dbf\u4e00-\u9fff]/;

/** Turns Chinese text into toneless pinyin syllables separated by spaces ("中文" → "zhong wen"). */
export type ToPinyin = (text: string) => string;

/**
 * The slug a category or tag name gets: the first of its names that gives one,
 * Chinese read as pinyin when a converter is at hand ("Go 语言" → "go-yu-yan").
 * "" when no name gives a slug; the caller then uses a short id (`shortSlug`).
 */
export function slugFromNames(names: readonly string[], toPinyin?: ToPinyin): string {
  for (const name of names) {
    const text = toPinyin && HAN.test(name) ? toPinyin(name) : name;
    const slug = slugify(text);
    if (slug) return slug;
  }
  return "";
}

/** The last resort for a name with nothing to spell (symbols only): "t-" and eight characters of an id. */
export function shortSlug(id: string): string {
  return `t-${slugify(id).replace(/-/g, "").slice(0, 8)}`;
}
