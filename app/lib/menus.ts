// The site's menus (issue 48, docs/decisions/035-pages-and-menus.md): shared by the server,
// which stores and resolves them, and the header, footer and admin editor, which show them.

export const MENUS = ["main", "footer"] as const;
export type MenuName = (typeof MENUS)[number];

/** What an item leads to: one of the site's own pages, a page, a term, a series, an author, or an address. */
export const MENU_ITEM_KINDS = ["builtin", "page", "category", "tag", "series", "author", "url"] as const;
export type MenuItemKind = (typeof MENU_ITEM_KINDS)[number];

/** The site's fixed pages an item may name (labels from the site's strings). */
export const BUILTIN_TARGETS = [
  "home",
  "posts",
  "about",
  "contact",
  "privacy",
  "links",
  "subscribe",
  "search",
] as const;
export type BuiltinTarget = (typeof BUILTIN_TARGETS)[number];

/** An item as stored: `ref` names the target (a builtin name, a record id, or the address); `label` may be empty. */
export interface MenuItem {
  kind: MenuItemKind;
  ref: string;
  label: string;
}

/** An item as a page shows it. */
export interface ResolvedMenuItem {
  href: string;
  label: string;
  /** Another site's address: a plain link, opened as such. */
  external: boolean;
}

export const MENU_MAX_ITEMS = 20;
export const MENU_LABEL_MAX = 60;
export const MENU_URL_MAX = 2000;

/**
 * Whether `value` may be an item's address: a path on this site (`/…`, not `//host`) or an
 * http(s) URL with a host and no credentials.
 */
export function isMenuAddress(value: string): boolean {
  if (value.length === 0 || value.length > MENU_URL_MAX || /[\s\\]/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.host !== "" && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** The width of a label in "narrow characters": CJK and other wide characters count two. */
function labelWidth(label: string): number {
  let width = 0;
  for (const ch of label)
    width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch)
      ? 2
      : 1;
  return width;
}

/**
 * How many of the main menu's items the header shows in its one row from 1024 px; the rest
 * go into its "More" disclosure. A budget of narrow characters (each item costs its label and
 * its padding), and at most six, leave room for the site's name, search, theme, language and
 * account controls; the phone menu lists every item.
 */
export const HEADER_BUDGET = 42;
export const HEADER_MAX_INLINE = 6;
const ITEM_COST = 3;
const MORE_COST = 7;

export function headerInlineCount(items: readonly ResolvedMenuItem[]): number {
  const costs = items.map((item) => labelWidth(item.label) + ITEM_COST);
  const total = costs.reduce((a, b) => a + b, 0);
  if (items.length <= HEADER_MAX_INLINE && total <= HEADER_BUDGET) return items.length;
  let used = MORE_COST;
  let count = 0;
  for (const cost of costs) {
    if (count >= HEADER_MAX_INLINE - 1 || used + cost > HEADER_BUDGET) break;
    used += cost;
    count += 1;
  }
  return count;
}
