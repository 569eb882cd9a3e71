import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { Link, NavLink } from "../../lean/link.tsx";
import { ADMIN_NAMESPACES } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { AccountMenu, LanguageSwitch } from "../layout/site-header.tsx";
import { ThemeToggle } from "../layout/theme.tsx";

/** One entry of the admin's sidebar; `key` is an i18n key, in its section's namespace. */
export interface AdminNavItem {
  to: string;
  key: string;
  /** Marked as the current page only on this exact path (the dashboard). */
  end?: boolean;
}

export interface AdminNavGroup {
  /** `admin:shell.groups.{id}` names the group; null: the entries above every group. */
  id: "content" | "audience" | "site" | "tools" | null;
  items: readonly AdminNavItem[];
}

/**
 * The admin's sidebar, grouped by what the owner came to do. Every admin page is reached
 * from here (the pages under an entry, such as /admin/newsletter/{id}, mark that entry).
 * The names stay those the old menu had: the browser tests find the sections by them.
 */
export const ADMIN_NAV = [
  { id: null, items: [{ to: "/admin", key: "menu.dashboard", end: true }] },
  {
    id: "content",
    items: [
      { to: "/admin/blog", key: "adminContent:menu.blog" },
      { to: "/posts/createPost", key: "shell.newPost" },
      { to: "/admin/pages", key: "adminPages:menu.pages" },
      { to: "/admin/comments", key: "adminContent:menu.comments" },
      { to: "/admin/media", key: "media:menu" },
      { to: "/admin/series", key: "menu.series" },
      { to: "/admin/categories", key: "menu.categories" },
      { to: "/admin/tags", key: "menu.tags" },
    ],
  },
  {
    id: "audience",
    items: [
      { to: "/admin/subscribers", key: "adminUsers:menu.subscribers" },
      { to: "/admin/newsletter", key: "adminNewsletter:menu" },
      { to: "/admin/fediverse", key: "adminConfig:fediverse.menu" },
      { to: "/admin/insights", key: "menu.insights" },
    ],
  },
  {
    id: "site",
    items: [
      { to: "/admin/config", key: "adminConfig:menu" },
      { to: "/admin/brand", key: "adminBrand:menu" },
      { to: "/admin/links", key: "adminLinks:menu.links" },
      { to: "/admin/swapers", key: "menu.swapers" },
      { to: "/admin/ads", key: "adminLinks:menu.ads" },
      { to: "/admin/redirects", key: "adminLinks:menu.redirects" },
      { to: "/admin/menus", key: "adminPages:menu.menus" },
    ],
  },
  {
    id: "tools",
    items: [
      { to: "/admin/import", key: "adminLinks:menu.import" },
      { to: "/admin/users", key: "adminUsers:menu.users" },
      { to: "/admin/audit", key: "adminTools:audit.menu" },
      { to: "/admin/docs", key: "adminTools:docs.menu" },
    ],
  },
] as const satisfies readonly AdminNavGroup[];

export const ADMIN_SIDEBAR_ID = "admin-sidebar";

/** The admin's strings (sidebar names come from every admin namespace). */
const NAMESPACES = ADMIN_NAMESPACES;

const ITEM =
  "flex items-center justify-between gap-2 rounded-md px-3 py-1 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600";
const ITEM_IDLE = "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800";
const ITEM_CURRENT = "bg-zinc-100 font-semibold text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100";

function PendingBadge({ count }: { count: number }) {
  const { t } = useTranslation(NAMESPACES);
  return (
    <span
      data-testid="pending-comments"
      className="inline-block min-w-5 rounded-full bg-amber-500 px-1.5 text-center text-xs font-semibold text-zinc-950"
    >
      <span aria-hidden="true">{count}</span>
      <span className="sr-only">{` (${t("adminContent:menu.commentsWaiting", { count })})`}</span>
    </span>
  );
}

function Sidebar({ pendingComments, locale }: { pendingComments: number; locale: Locale }) {
  const { t } = useTranslation(NAMESPACES);
  return (
    <div className="space-y-4 px-3 py-4 text-sm">
      {ADMIN_NAV.map((group) => (
        <div key={group.id ?? "top"}>
          {group.id && (
            <p
              id={`admin-group-${group.id}`}
              className="px-3 pb-1 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400"
            >
              {t(`shell.groups.${group.id}`)}
            </p>
          )}
          <ul aria-labelledby={group.id ? `admin-group-${group.id}` : undefined} className="space-y-0.5">
            {group.items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={"end" in item ? item.end : false}
                  className={({ isActive }) => `${ITEM} ${isActive ? ITEM_CURRENT : ITEM_IDLE}`}
                >
                  <span>{t(item.key)}</span>
                  {item.to === "/admin/comments" && pendingComments > 0 ? (
                    <PendingBadge count={pendingComments} />
                  ) : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <div className="space-y-3 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <Link to="/" className={`${ITEM} ${ITEM_IDLE} justify-start`}>
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 shrink-0" fill="currentColor">
            <path d="M11 3h6v6h-2V6.4l-6.3 6.3-1.4-1.4L13.6 5H11V3zM4 5h4v2H5v8h8v-3h2v5H3V5h1z" />
          </svg>
          <span>{t("shell.viewSite")}</span>
        </Link>
        <div className="px-1">
          <LanguageSwitch locale={locale} />
        </div>
      </div>
    </div>
  );
}

/**
 * The admin's page frame (issue 46): a bar with the site's name, the theme switch and the
 * account menu under the person's display name; a sidebar of grouped sections; the page.
 * From 1024 px the sidebar is a column beside the page. Below, it collapses behind the
 * bar's Menu button (a disclosure: `aria-expanded`, `aria-controls`) once script runs;
 * without script it stays in the page above the content (the `js` class, app.css).
 */
export function AdminShell({
  siteName,
  displayName,
  email,
  pendingComments,
  locale,
  children,
}: {
  siteName: string;
  /** The person's chosen name; null when they have none (never their address). */
  displayName: string | null;
  email: string;
  pendingComments: number;
  locale: Locale;
  children: ReactNode;
}) {
  const { t } = useTranslation(NAMESPACES);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // A chosen page closes the menu (a phone shows the page, not the list).
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the effect of a location change
  useEffect(() => setOpen(false), [location.key]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      // An open account menu takes the first Escape (it marks the event as handled).
      if (event.key !== "Escape" || event.defaultPrevented) return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className="min-h-screen">
      <header
        data-testid="admin-bar"
        className="sticky top-0 z-40 border-b border-zinc-200 bg-white/95 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/95"
      >
        <div className="flex h-14 items-center gap-2 px-4">
          <button
            ref={button}
            type="button"
            data-admin-menu-button=""
            aria-expanded={open}
            aria-controls={ADMIN_SIDEBAR_ID}
            onClick={() => setOpen((v) => !v)}
            className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-zinc-300 px-2.5 py-1.5 text-sm font-medium hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 lg:hidden dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
            {t("shell.menu")}
          </button>
          <Link
            to="/admin"
            aria-label={siteName}
            title={siteName}
            className="flex min-w-0 items-center gap-2 rounded-md font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
          >
            <img src="/favicon.svg" alt="" width="24" height="24" className="h-6 w-6 shrink-0" />
            {/* On a phone the bar keeps its room for the Menu button and the name: the logo alone. */}
            <span className="hidden truncate sm:block">{siteName}</span>
          </Link>
          <div className="ml-auto flex shrink-0 items-center gap-1">
            <ThemeToggle />
            <AccountMenu user={{ email, name: displayName, isAdmin: true }} name={displayName ?? t("shell.noName")} />
          </div>
        </div>
      </header>
      <div className="lg:flex">
        <nav
          id={ADMIN_SIDEBAR_ID}
          aria-label={t("panel")}
          data-admin-sidebar=""
          data-open={open ? "" : undefined}
          className="border-b border-zinc-200 bg-zinc-50 lg:sticky lg:top-14 lg:max-h-[calc(100vh-3.5rem)] lg:w-60 lg:shrink-0 lg:self-start lg:overflow-y-auto lg:border-r lg:border-b-0 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <Sidebar pendingComments={pendingComments} locale={locale} />
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-8 focus:outline-none lg:px-8">
          <div className="mx-auto max-w-6xl">{children}</div>
        </main>
      </div>
    </div>
  );
}
