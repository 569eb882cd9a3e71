import { useTranslation } from "react-i18next";
import { Link, useMatches } from "react-router";
import type { Locale } from "../../lib/i18n/locale.ts";
import { SubscribeBox } from "./subscribe-box.tsx";

/** The subscribe page has the form in its main content; the footer box would repeat it. */
const SUBSCRIBE_PAGE_IDS = new Set(["subscribe", "subscribe-en", "subscribe-zh"]);

export function SiteFooter({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const onSubscribePage = useMatches().some((m) => SUBSCRIBE_PAGE_IDS.has(m.id));
  return (
    <footer className="mt-16 border-t border-zinc-200 py-8 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
      <div className="mx-auto flex max-w-4xl flex-col gap-8 px-4 md:flex-row md:justify-between">
        <div className="flex flex-col gap-4">
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
        {!onSubscribePage && <SubscribeBox locale={locale} />}
      </div>
    </footer>
  );
}
