import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export const THEME_KEY = "theme";

/**
 * Runs before first paint (inline, with the CSP nonce): the saved theme, else the
 * system preference, as the `dark` class on <html>. No flash of the wrong theme.
 */
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem("${THEME_KEY}");var d=t==="dark"||(t!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d);}catch(e){}})();`;

/**
 * Runs before first paint too: marks <html> with `js`, so CSS can tell a page whose script
 * runs from one without (the admin's sidebar collapses behind its menu button only with `js`;
 * without script it stays in the page, docs/decisions/029-admin-workspace.md).
 */
export const JS_FLAG_SCRIPT = `document.documentElement.classList.add("js");`;

function SunIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
}

/** The light/dark switch: a toggle button named "Dark theme", pressed when dark. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const [dark, setDark] = useState<boolean | null>(null);
  useEffect(() => setDark(document.documentElement.classList.contains("dark")), []);
  const toggle = () => {
    const next = !document.documentElement.classList.contains("dark");
    document.documentElement.classList.toggle("dark", next);
    try {
      localStorage.setItem(THEME_KEY, next ? "dark" : "light");
    } catch {
      // Private mode without storage: the theme still applies for this page.
    }
    setDark(next);
  };
  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={dark ?? undefined}
      aria-label={t("nav.themeToggle")}
      data-testid="theme-toggle"
      data-theme-toggle=""
      className="rounded-md p-2 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-zinc-800"
    >
      <span className="dark:hidden">
        <SunIcon />
      </span>
      <span className="hidden dark:inline">
        <MoonIcon />
      </span>
    </button>
  );
}
