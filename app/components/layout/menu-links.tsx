import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "../../lean/link.tsx";
import { headerInlineCount, type ResolvedMenuItem } from "../../lib/menus.ts";
import { useDismiss } from "../ui/use-dismiss.ts";

// The site's menus as links (docs/decisions/035-pages-and-menus.md): the header's main menu,
// with its "More" disclosure, and the footer's list. Plain links and a `<details>`, so they
// work in a lean document without any script.

/** The main menu a page shows when the root's data is missing (an error page): the default. */
export function useDefaultMainMenu(): ResolvedMenuItem[] {
  const { t } = useTranslation();
  return [
    { href: "/", label: t("nav.home"), external: false },
    { href: "/posts", label: t("nav.allBlogs"), external: false },
  ];
}

/** The footer menu a page shows when the root's data is missing: the default. */
export function useDefaultFooterMenu(hasFriendLinks: boolean): ResolvedMenuItem[] {
  const { t } = useTranslation();
  return [
    { href: "/", label: t("nav.home"), external: false },
    { href: "/about", label: t("footer.aboutLink"), external: false },
    { href: "/contact", label: t("footer.contactLink"), external: false },
    { href: "/privacy", label: t("footer.privacyLink"), external: false },
    ...(hasFriendLinks ? [{ href: "/links", label: t("footer.linksLink"), external: false }] : []),
  ];
}

const itemKey = (item: ResolvedMenuItem, i: number) => `${i}:${item.href}`;

/** One item: the site's pages through the language-keeping NavLink, other sites as plain links. */
function HeaderLink({
  item,
  linkClass,
}: {
  item: ResolvedMenuItem;
  linkClass: (state: { isActive: boolean }) => string;
}) {
  if (item.external) {
    return (
      <a href={item.href} rel="noopener noreferrer" className={linkClass({ isActive: false })}>
        {item.label}
      </a>
    );
  }
  return (
    <NavLink to={item.href} end className={linkClass}>
      {item.label}
    </NavLink>
  );
}

/**
 * The header's main menu. From 1024 px the first items that fit one row are shown and the rest
 * sit in a "More" disclosure; the phone menu (a column) lists every item in order.
 */
export function HeaderMenu({
  items,
  linkClass,
}: {
  items: readonly ResolvedMenuItem[];
  linkClass: (state: { isActive: boolean }) => string;
}) {
  const { t } = useTranslation();
  const more = useRef<HTMLDetailsElement>(null);
  useDismiss(more);
  const inline = headerInlineCount(items);
  const rest = items.slice(inline);
  return (
    <ul className="flex flex-col gap-1 lg:flex-row lg:gap-2" data-testid="main-menu">
      {items.map((item, i) => (
        <li key={itemKey(item, i)} className={i >= inline ? "lg:hidden" : undefined}>
          <HeaderLink item={item} linkClass={linkClass} />
        </li>
      ))}
      {rest.length > 0 && (
        <li className="hidden lg:block">
          <details ref={more} className="group relative" data-more-menu="">
            <summary className="flex cursor-pointer list-none items-center gap-1 whitespace-nowrap rounded px-2 py-1 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden">
              {t("menu.more")}
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                className="h-4 w-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none"
                fill="currentColor"
              >
                <path d="M5.5 7.5 10 12l4.5-4.5z" />
              </svg>
            </summary>
            <ul className="absolute left-0 z-50 mt-2 flex min-w-48 flex-col gap-0.5 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
              {rest.map((item, i) => (
                <li key={itemKey(item, inline + i)}>
                  <HeaderLink item={item} linkClass={linkClass} />
                </li>
              ))}
            </ul>
          </details>
        </li>
      )}
    </ul>
  );
}

/** The footer's menu: a list of links. */
export function FooterMenu({ items, linkClass }: { items: readonly ResolvedMenuItem[]; linkClass: string }) {
  return (
    <ul className="mt-2 space-y-1" data-testid="footer-menu">
      {items.map((item, i) => (
        <li key={itemKey(item, i)}>
          {item.external ? (
            <a href={item.href} rel="noopener noreferrer" className={linkClass}>
              {item.label}
            </a>
          ) : (
            <Link to={item.href} className={linkClass}>
              {item.label}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
