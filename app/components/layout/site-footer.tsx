import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 border-t border-zinc-200 py-8 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
      <div className="mx-auto flex max-w-4xl flex-col gap-4 px-4 md:flex-row md:justify-between">
        <nav aria-label={t("footer.quickLinks")}>
          <ul className="flex flex-wrap gap-4">
            <li>
              <Link to="/" className="hover:underline">
                {t("nav.home")}
              </Link>
            </li>
            <li>
              <Link to="/posts/page/1" className="hover:underline">
                {t("nav.allBlogs")}
              </Link>
            </li>
          </ul>
        </nav>
        <p>{t("footer.copyright", { year: new Date().getUTCFullYear(), siteName: t("siteName") })}</p>
      </div>
    </footer>
  );
}
