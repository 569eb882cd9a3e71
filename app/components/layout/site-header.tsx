import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, NavLink, useLocation, useNavigation } from "react-router";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useLocalePrefix } from "../../lib/i18n/use-locale-prefix.ts";
import { ThemeToggle } from "./theme.tsx";

export interface HeaderUser {
  email: string;
  isAdmin: boolean;
}

export const NAV_HIDE_AFTER_PX = 200;

/**
 * Hides the bar when the reader scrolls down past 200 px and shows it again on
 * scrolling up; never while its menu is open or focus is inside it.
 */
function useHideOnScroll(header: React.RefObject<HTMLElement | null>, menuOpen: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let lastY = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      const focusInside = header.current?.contains(document.activeElement) ?? false;
      if (menuOpen || focusInside || y <= NAV_HIDE_AFTER_PX) setHidden(false);
      else if (y > lastY) setHidden(true);
      else if (y < lastY) setHidden(false);
      lastY = y;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [header, menuOpen]);
  return hidden && !menuOpen;
}

function LanguageSwitch({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const button = (target: Locale, label: string, name: string) => (
    <Form method="post" action="/locale" key={target}>
      <input type="hidden" name="locale" value={target} />
      <input type="hidden" name="redirectTo" value={here} />
      <button
        type="submit"
        aria-label={`${label} (${name})`}
        aria-current={locale === target ? "true" : undefined}
        lang={target === "en" ? "en-US" : "zh-CN"}
        className="rounded px-2 py-1 aria-[current]:font-semibold aria-[current]:underline hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        {label}
      </button>
    </Form>
  );
  return (
    <fieldset className="flex items-center gap-1">
      <legend className="sr-only">{t("nav.language")}</legend>
      {button("en", "English", t("nav.switchToEnglish"))}
      {button("zh", "中文", t("nav.switchToChinese"))}
    </fieldset>
  );
}

/** The search page, in the language of the page it is on (an icon button, always visible). */
function SearchLink() {
  const { t } = useTranslation("search");
  const prefix = useLocalePrefix();
  return (
    <Link
      to={`${prefix}/search`}
      aria-label={t("open")}
      title={t("open")}
      data-testid="nav-search"
      className="rounded-md p-2 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-zinc-800"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="11" cy="11" r="7" />
        <path d="M20 20l-4-4" />
      </svg>
    </Link>
  );
}

export function SiteHeader({
  siteName,
  user,
  locale,
  showLanguageSwitch,
}: {
  siteName: string;
  user: HeaderUser | null;
  locale: Locale;
  showLanguageSwitch: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const header = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const location = useLocation();
  const navigation = useNavigation();
  const hidden = useHideOnScroll(header, open);

  // The menu closes on navigation (and on logout, which navigates).
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the effect of a location change
  useEffect(() => setOpen(false), [location.key]);
  useEffect(() => {
    if (navigation.state === "submitting") setOpen(false);
  }, [navigation.state]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `block rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800 ${isActive ? "font-semibold" : ""}`;

  return (
    <header
      ref={header}
      data-testid="site-header"
      data-nav-bar=""
      data-hidden={hidden ? "true" : "false"}
      className={`sticky top-0 z-40 border-b border-zinc-200 bg-white/95 backdrop-blur transition-transform duration-200 motion-reduce:transition-none dark:border-zinc-800 dark:bg-zinc-950/95 ${hidden ? "-translate-y-full" : "translate-y-0"}`}
    >
      <nav
        aria-label={t("nav.label")}
        className="mx-auto flex max-w-4xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
      >
        <Link to="/" className="flex items-center gap-2 text-lg font-semibold">
          <img src="/favicon.svg" alt="" width="28" height="28" className="h-7 w-7" />
          {siteName}
        </Link>
        <div className="ml-auto flex items-center gap-1 md:order-last">
          <SearchLink />
          <ThemeToggle />
          <button
            ref={toggleRef}
            type="button"
            className="rounded-md p-2 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 md:hidden dark:hover:bg-zinc-800"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? t("nav.closeMenu") : t("nav.openMenu")}
            data-menu-toggle=""
            data-label-open={t("nav.openMenu")}
            data-label-close={t("nav.closeMenu")}
            onClick={() => setOpen((v) => !v)}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-6 w-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
        <div
          id={menuId}
          className={`${open ? "flex" : "hidden"} w-full flex-col gap-2 text-sm md:flex md:w-auto md:flex-1 md:flex-row md:items-center md:gap-4`}
        >
          <ul className="flex flex-col gap-1 md:flex-row md:gap-2">
            <li>
              <NavLink to="/" end className={linkClass}>
                {t("nav.home")}
              </NavLink>
            </li>
            <li>
              <NavLink to="/posts/page/1" className={linkClass}>
                {t("nav.allBlogs")}
              </NavLink>
            </li>
            {user?.isAdmin && (
              <>
                <li>
                  <NavLink to="/posts/myPosts" className={linkClass}>
                    {t("nav.myBlogs")}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/posts/createPost" className={linkClass}>
                    {t("nav.createBlog")}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/admin" className={linkClass}>
                    {t("nav.adminPanel")}
                  </NavLink>
                </li>
              </>
            )}
          </ul>
          <div className="flex flex-col gap-2 md:ml-auto md:flex-row md:items-center md:gap-3">
            {showLanguageSwitch && <LanguageSwitch locale={locale} />}
            {user ? (
              <>
                <Link
                  to="/account"
                  data-testid="nav-user"
                  title={t("nav.signedInAs", { email: user.email })}
                  className="rounded px-2 py-1 hover:underline"
                >
                  {user.email}
                </Link>
                <Form method="post" action="/logout">
                  <button
                    type="submit"
                    className="rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-900"
                  >
                    {t("nav.logout")}
                  </button>
                </Form>
              </>
            ) : (
              <>
                <NavLink to="/login" className={linkClass}>
                  {t("nav.login")}
                </NavLink>
                <NavLink to="/register" className={linkClass}>
                  {t("nav.register")}
                </NavLink>
              </>
            )}
          </div>
        </div>
      </nav>
    </header>
  );
}
