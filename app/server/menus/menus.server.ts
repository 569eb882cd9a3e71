import { i18nFor } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import {
  BUILTIN_TARGETS,
  type BuiltinTarget,
  isMenuAddress,
  MENU_ITEM_KINDS,
  MENU_LABEL_MAX,
  MENU_MAX_ITEMS,
  type MenuItem,
  type MenuName,
  type ResolvedMenuItem,
} from "../../lib/menus.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { cachedCount } from "../posts/post-counts.server.ts";

// The main (header) and footer menus, one per language (docs/decisions/035-pages-and-menus.md).
// A menu nobody edited has no row and is the default, which draws exactly the header and
// footer links the site had before menus existed. Pages read them resolved and cached like the
// footer's counts (post-counts.server.ts): every admin write drops them with the rendered pages.

const BUILTIN_PATHS: Record<BuiltinTarget, string> = {
  home: "/",
  posts: "/posts",
  about: "/about",
  contact: "/contact",
  privacy: "/privacy",
  links: "/links",
  subscribe: "/subscribe",
  search: "/search",
};

/** The site's strings that name the fixed pages, as the header and footer always called them. */
const BUILTIN_LABELS = {
  home: "nav.home",
  posts: "nav.allBlogs",
  about: "footer.aboutLink",
  contact: "footer.contactLink",
  privacy: "footer.privacyLink",
  links: "footer.linksLink",
  subscribe: "menu.subscribe",
  search: "menu.search",
} as const satisfies Record<BuiltinTarget, string>;

const builtin = (ref: BuiltinTarget): MenuItem => ({ kind: "builtin", ref, label: "" });

/** The menus of a site that never opened the editor: today's header and footer. */
export function defaultMenu(menu: MenuName): MenuItem[] {
  return menu === "main"
    ? [builtin("home"), builtin("posts")]
    : [builtin("home"), builtin("about"), builtin("contact"), builtin("privacy"), builtin("links")];
}

const keyOf = (menu: MenuName, locale: Locale) => `${menu}:${locale}`;

/** Whether `value` is a well-formed item (what a stored row or a form may hold). */
export function isMenuItem(value: unknown): value is MenuItem {
  if (!value || typeof value !== "object") return false;
  const item = value as Record<string, unknown>;
  if (typeof item.kind !== "string" || typeof item.ref !== "string" || typeof item.label !== "string") return false;
  if (!(MENU_ITEM_KINDS as readonly string[]).includes(item.kind)) return false;
  if (item.label.length > MENU_LABEL_MAX) return false;
  if (item.kind === "builtin") return (BUILTIN_TARGETS as readonly string[]).includes(item.ref);
  if (item.kind === "url") return isMenuAddress(item.ref) && item.label.trim() !== "";
  return item.ref !== "" && item.ref.length <= 100;
}

/** A menu's items as the editor shows them, and whether they are the owner's or the default. */
export async function menuItems(
  db: DB,
  menu: MenuName,
  locale: Locale,
): Promise<{ items: MenuItem[]; custom: boolean }> {
  const row = await db.selectFrom("menus").select("items").where("key", "=", keyOf(menu, locale)).executeTakeFirst();
  if (!row) return { items: defaultMenu(menu), custom: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.items);
  } catch {
    parsed = null;
  }
  // A row that no longer reads as a menu is ignored, as a stored setting that no longer fits is.
  if (!Array.isArray(parsed)) return { items: defaultMenu(menu), custom: false };
  return { items: parsed.filter(isMenuItem).slice(0, MENU_MAX_ITEMS), custom: true };
}

/** Stores a menu (every item checked; false and nothing written when one is not an item). */
export async function saveMenu(db: DB, menu: MenuName, locale: Locale, items: readonly MenuItem[]): Promise<boolean> {
  if (items.length > MENU_MAX_ITEMS || !items.every(isMenuItem)) return false;
  const now = nowIso();
  const json = JSON.stringify(items.map(({ kind, ref, label }) => ({ kind, ref, label: label.trim() })));
  await db
    .insertInto("menus")
    .values({ key: keyOf(menu, locale), items: json, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ items: json, updatedAt: now }))
    .execute();
  return true;
}

/** Back to the default menu. */
export async function resetMenu(db: DB, menu: MenuName, locale: Locale): Promise<void> {
  await db.deleteFrom("menus").where("key", "=", keyOf(menu, locale)).execute();
}

const idsOf = (items: readonly MenuItem[], kind: MenuItem["kind"]) => [
  ...new Set(items.filter((i) => i.kind === kind).map((i) => i.ref)),
];

const inLocale = (locale: Locale, en: string, zh: string) => (locale === "en" ? en || zh : zh || en);

/**
 * The items as links in `locale`: each target looked up (one query per kind present), an item
 * whose target is gone or unpublished left out, an empty label filled with the target's name.
 * The friend links page is offered only while there is a friend link (as the footer always did).
 */
export async function resolveMenu(
  db: DB,
  items: readonly MenuItem[],
  locale: Locale,
  opts: { hasFriendLinks: boolean },
): Promise<ResolvedMenuItem[]> {
  const { t } = i18nFor(locale);
  const pageIds = idsOf(items, "page");
  const needsSystem = items.some((i) => i.kind === "builtin" && ["about", "contact", "privacy"].includes(i.ref));
  const [pages, systemPages, categories, tags, series, authors] = await Promise.all([
    pageIds.length
      ? db
          .selectFrom("pages")
          .select(["id", "slug", "titleEn", "titleZh"])
          .where("id", "in", pageIds)
          .where("status", "=", "published")
          .execute()
      : [],
    needsSystem
      ? db
          .selectFrom("pages")
          .select(["systemKey"])
          .where("systemKey", "is not", null)
          .where("status", "=", "published")
          .execute()
      : [],
    idsOf(items, "category").length
      ? db
          .selectFrom("categories")
          .select(["id", "slug", "nameEn", "nameZh"])
          .where("id", "in", idsOf(items, "category"))
          .execute()
      : [],
    idsOf(items, "tag").length
      ? db
          .selectFrom("tags")
          .select(["id", "slug", "nameEn", "nameZh"])
          .where("id", "in", idsOf(items, "tag"))
          .execute()
      : [],
    idsOf(items, "series").length
      ? db
          .selectFrom("series")
          .select(["id", "slug", "nameEn", "nameZh"])
          .where("id", "in", idsOf(items, "series"))
          .execute()
      : [],
    idsOf(items, "author").length
      ? db
          .selectFrom("users")
          .select(["id", "handle", "name"])
          .where("id", "in", idsOf(items, "author"))
          .where("banned", "=", 0)
          .where("handle", "is not", null)
          .execute()
      : [],
  ]);
  const published = new Set(systemPages.map((p) => p.systemKey));
  const byId = <T extends { id: string }>(rows: readonly T[]) => new Map(rows.map((r) => [r.id, r]));
  const pageMap = byId(pages);
  const categoryMap = byId(categories);
  const tagMap = byId(tags);
  const seriesMap = byId(series);
  const authorMap = byId(authors);

  const out: ResolvedMenuItem[] = [];
  for (const item of items) {
    const own = item.label.trim();
    const link = (href: string, name: string, external = false) => out.push({ href, label: own || name, external });
    switch (item.kind) {
      case "builtin": {
        const ref = item.ref as BuiltinTarget;
        if (ref === "links" && !opts.hasFriendLinks) break;
        if ((ref === "about" || ref === "contact" || ref === "privacy") && !published.has(ref)) break;
        link(BUILTIN_PATHS[ref], t(BUILTIN_LABELS[ref]));
        break;
      }
      case "page": {
        const page = pageMap.get(item.ref);
        if (page) link(`/${page.slug}`, inLocale(locale, page.titleEn, page.titleZh));
        break;
      }
      case "category": {
        const c = categoryMap.get(item.ref);
        if (c) link(`/categories/${encodeURIComponent(c.slug)}`, inLocale(locale, c.nameEn, c.nameZh));
        break;
      }
      case "tag": {
        const c = tagMap.get(item.ref);
        if (c) link(`/tags/${encodeURIComponent(c.slug)}`, inLocale(locale, c.nameEn, c.nameZh));
        break;
      }
      case "series": {
        const s = seriesMap.get(item.ref);
        if (s) link(`/series/${encodeURIComponent(s.slug)}`, inLocale(locale, s.nameEn, s.nameZh));
        break;
      }
      case "author": {
        const a = authorMap.get(item.ref);
        if (a?.handle) link(`/authors/${a.handle}`, a.name);
        break;
      }
      case "url":
        link(item.ref, item.ref, !item.ref.startsWith("/"));
        break;
    }
  }
  return out;
}

export interface SiteMenus {
  main: ResolvedMenuItem[];
  footer: ResolvedMenuItem[];
}

/** Both menus of `locale`, resolved. */
export async function siteMenus(db: DB, locale: Locale, opts: { hasFriendLinks: boolean }): Promise<SiteMenus> {
  const [main, footer] = await Promise.all([menuItems(db, "main", locale), menuItems(db, "footer", locale)]);
  const [mainLinks, footerLinks] = await Promise.all([
    resolveMenu(db, main.items, locale, opts),
    resolveMenu(db, footer.items, locale, opts),
  ]);
  return { main: mainLinks, footer: footerLinks };
}

/**
 * The menus every page's root loader reads: kept like the footer's counts (30 s at most,
 * dropped at once by any admin write through `content.changed()`), so a page view costs no
 * menu queries.
 */
export function cachedSiteMenus(db: DB, locale: Locale, opts: { hasFriendLinks: boolean }): Promise<SiteMenus> {
  return cachedCount(db, `menus:${locale}:${opts.hasFriendLinks ? 1 : 0}`, () => siteMenus(db, locale, opts));
}

/** What the editor offers to add, by kind: each target's id (or name) and its name in `locale`. */
export interface MenuChoices {
  pages: Array<{ id: string; name: string; published: boolean }>;
  categories: Array<{ id: string; name: string }>;
  tags: Array<{ id: string; name: string }>;
  series: Array<{ id: string; name: string }>;
  authors: Array<{ id: string; name: string }>;
}

/** The editor's choices: every page, category, tag and series, and the people who wrote a post. */
export async function menuChoices(db: DB, locale: Locale): Promise<MenuChoices> {
  const named = (rows: ReadonlyArray<{ id: string; nameEn: string; nameZh: string }>) =>
    rows
      .map((r) => ({ id: r.id, name: inLocale(locale, r.nameEn, r.nameZh) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const [pages, categories, tags, series, authors] = await Promise.all([
    db.selectFrom("pages").select(["id", "slug", "titleEn", "titleZh", "status"]).orderBy("slug").execute(),
    db.selectFrom("categories").select(["id", "nameEn", "nameZh"]).execute(),
    db.selectFrom("tags").select(["id", "nameEn", "nameZh"]).limit(500).execute(),
    db.selectFrom("series").select(["id", "nameEn", "nameZh"]).execute(),
    db
      .selectFrom("users")
      .select(["id", "name"])
      .where("handle", "is not", null)
      .where("banned", "=", 0)
      .where((eb) => eb.exists(eb.selectFrom("posts").select("posts.id").whereRef("posts.authorId", "=", "users.id")))
      .orderBy("name")
      .limit(200)
      .execute(),
  ]);
  return {
    pages: pages.map((p) => ({
      id: p.id,
      name: `${inLocale(locale, p.titleEn, p.titleZh) || p.slug} (/${p.slug})`,
      published: p.status === "published",
    })),
    categories: named(categories),
    tags: named(tags),
    series: named(series),
    authors: authors.map((a) => ({ id: a.id, name: a.name })),
  };
}
