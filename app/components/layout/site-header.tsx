import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useLocation, useNavigation } from "react-router";
import { Link, NavLink } from "../../lean/link.tsx";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useLocalePrefix } from "../../lib/i18n/use-locale-prefix.ts";
import type { ResolvedMenuItem } from "../../lib/menus.ts";
import { useDismiss } from "../ui/use-dismiss.ts";
import { HeaderMenu, useDefaultMainMenu } from "./menu-links.tsx";
import { ThemeToggle } from "./theme.tsx";

export interface HeaderUser {
  email: string;
  /** The display name the person chose; null when the account has none. */
  name: string | null;
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

/** English / 中文 buttons: each posts to /locale and comes back to this page. */
export function LanguageSwitch({ locale }: { locale: Locale }) {
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

const MENU_LINK =
  "block whitespace-nowrap rounded px-3 py-2 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-zinc-800";

/**
 * The signed-in account's links in one disclosure: a `<details>` (so it opens without
 * script too) whose summary is the person's display name ("Your account" when they have
 * none), never their e-mail address. Escape closes it and returns focus to the
 * summary, and so do a click outside it and a navigation. A dropdown from 1024 px,
 * part of the phone menu's column below that.
 *
 * In the admin's bar (`name` given) the list drops down at every width (the bar has no
 * phone menu around it).
 */
export function AccountMenu({ user, name }: { user: HeaderUser; name?: string }) {
  const inAdmin = name !== undefined;
  const { t } = useTranslation();
  // The person's display name, never their address; "Your account" when they have none.
  const shown = name ?? user.name ?? t("nav.noName");
  const details = useRef<HTMLDetailsElement>(null);
  const navigation = useNavigation();
  useDismiss(details);
  // A form being sent (the menu's sign-out) closes it too.
  useEffect(() => {
    if (navigation.state === "submitting" && details.current) details.current.open = false;
  }, [navigation.state]);

  return (
    <details ref={details} className="group relative" data-account-menu="">
      <summary
        data-testid="nav-user"
        aria-label={t("nav.signedInAsName", { name: shown })}
        title={t("nav.signedInAsName", { name: shown })}
        className="flex cursor-pointer list-none items-center gap-1 rounded px-2 py-1 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden"
      >
        <span
          className={
            inAdmin
              ? "max-w-[5rem] truncate min-[375px]:max-w-[8rem] sm:max-w-[12rem]"
              : "max-w-[16rem] truncate lg:max-w-[12rem]"
          }
        >
          {shown}
        </span>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="h-4 w-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none"
          fill="currentColor"
        >
          <path d="M5.5 7.5 10 12l4.5-4.5z" />
        </svg>
      </summary>
      <ul
        className={
          inAdmin
            ? "absolute right-0 z-50 mt-2 flex min-w-48 flex-col gap-0.5 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
            : "mt-1 flex flex-col gap-0.5 py-1 lg:absolute lg:right-0 lg:z-50 lg:mt-2 lg:min-w-48 lg:rounded-md lg:border lg:border-zinc-200 lg:bg-white lg:p-1 lg:shadow-lg dark:lg:border-zinc-700 dark:lg:bg-zinc-900"
        }
      >
        <li>
          <NavLink to="/account" className={MENU_LINK}>
            {t("nav.account")}
          </NavLink>
        </li>
        {user.isAdmin && (
          <>
            <li>
              <NavLink to="/posts/myPosts" className={MENU_LINK}>
                {t("nav.myBlogs")}
              </NavLink>
            </li>
            <li>
              <NavLink to="/posts/createPost" className={MENU_LINK}>
                {t("nav.createBlog")}
              </NavLink>
            </li>
            {!inAdmin && (
              <li>
                <NavLink to="/admin" className={MENU_LINK}>
                  {t("nav.adminPanel")}
                </NavLink>
              </li>
            )}
          </>
        )}
        <li className="mt-1 border-t border-zinc-200 pt-1 dark:border-zinc-700">
          <Form method="post" action="/logout">
            <button type="submit" className={`${MENU_LINK} w-full text-start`}>
              {t("nav.logout")}
            </button>
          </Form>
        </li>
      </ul>
    </details>
  );
}

export function SiteHeader({
  siteName,
  logo = null,
  user,
  locale,
  showLanguageSwitch,
  menu,
}: {
  siteName: string;
  /** The brand's logo (admin/brand), shown 28 px high; null: the Inkwell mark. */
  logo?: { src: string; width: number; height: number } | null;
  user: HeaderUser | null;
  locale: Locale;
  showLanguageSwitch: boolean;
  /** The main menu in the page's language (the default when the root's data is missing). */
  menu?: readonly ResolvedMenuItem[];
}) {
  const { t } = useTranslation();
  const defaultMenu = useDefaultMainMenu();
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
      // The account menu inside takes the first Escape (it marks the event as handled).
      if (event.key === "Escape" && !event.defaultPrevented) {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `block whitespace-nowrap rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800 ${isActive ? "font-semibold" : ""}`;

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
        className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
      >
        <Link to="/" className="flex items-center gap-2 text-lg font-semibold">
          {logo ? (
            <img
              src={logo.src}
              alt=""
              width={Math.round((28 * logo.width) / logo.height)}
              height="28"
              className="h-7 w-auto max-w-40 object-contain"
              data-testid="site-logo"
            />
          ) : (
            <img src="/favicon.svg" alt="" width="28" height="28" className="h-7 w-7" />
          )}
          {siteName}
        </Link>
        <div className="ml-auto flex items-center gap-1 lg:order-last">
          <SearchLink />
          <ThemeToggle />
          <button
            ref={toggleRef}
            type="button"
            className="rounded-md p-2 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 lg:hidden dark:hover:bg-zinc-800"
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
          className={`${open ? "flex" : "hidden"} w-full flex-col gap-2 text-sm lg:flex lg:w-auto lg:flex-1 lg:flex-row lg:items-center lg:gap-4`}
        >
          <HeaderMenu items={menu ?? defaultMenu} linkClass={linkClass} />
          <div className="flex flex-col gap-2 lg:ml-auto lg:flex-row lg:items-center lg:gap-3">
            {showLanguageSwitch && <LanguageSwitch locale={locale} />}
            {user ? (
              <AccountMenu user={user} />
            ) : (
              <ul className="flex flex-col gap-1 lg:flex-row lg:gap-2">
                <li>
                  <NavLink to="/login" className={linkClass}>
                    {t("nav.login")}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/register" className={linkClass}>
                    {t("nav.register")}
                  </NavLink>
                </li>
              </ul>
            )}
          </div>
        </div>
      </nav>
    </header>
  );
}
