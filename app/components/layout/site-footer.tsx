import { useTranslation } from "react-i18next";
import { useMatches } from "react-router";
import { Link } from "../../lean/link.tsx";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { ResolvedMenuItem } from "../../lib/menus.ts";
import { FollowBox } from "./follow-box.tsx";
import { FooterMenu, useDefaultFooterMenu } from "./menu-links.tsx";
import { SubscribeBox } from "./subscribe-box.tsx";

export interface FooterSite {
  name: string;
  about: string;
  socialLinks: Array<{ network: "github" | "x" | "weibo" | "zhihu"; url: string }>;
  copyright: string;
  /** Mainland China's filing numbers (empty: not shown). */
  filing?: { icp: string; police: string };
  /** The categories with the most published posts, named in the page's language. */
  popularCategories: Array<{ slug: string; name: string }>;
  /** The first enabled friend links, when the footer-links setting is on (else empty). */
  friendLinks?: Array<{ id: string; name: string; url: string }>;
  /** At least one friend link is enabled: the quick links offer the /links page. */
  hasFriendLinks?: boolean;
  /** The page's language's Fediverse handle while federation is on (else null: no follow box). */
  fediverseHandle?: string | null;
  /** The footer menu in the page's language (decision 035); the default when absent. */
  menu?: readonly ResolvedMenuItem[];
}

/** The public-security filing's record on the MPS site: its query takes the number's digits. */
export function policeFilingUrl(number: string): string {
  const code = number.match(/\d{6,}/)?.[0] ?? "";
  return `https://beian.mps.gov.cn/#/query/webSearch?code=${code}`;
}

/** Mainland China's filing numbers, each linking to the register that holds it (required there). */
function Filing({ filing }: { filing: { icp: string; police: string } }) {
  const link = "hover:underline focus-visible:underline";
  return (
    <p
      className="mx-auto mt-2 flex max-w-4xl flex-wrap gap-x-4 gap-y-1 px-4 text-zinc-600 dark:text-zinc-400"
      lang="zh"
    >
      {filing.icp && (
        <a href="https://beian.miit.gov.cn/" rel="noopener noreferrer" className={link}>
          {filing.icp}
        </a>
      )}
      {filing.police && (
        <a href={policeFilingUrl(filing.police)} rel="noopener noreferrer" className={link}>
          {filing.police}
        </a>
      )}
    </p>
  );
}

/** The subscribe page has the form in its main content; the footer box would repeat it. */
const SUBSCRIBE_PAGE_IDS = new Set(["subscribe", "subscribe-en", "subscribe-zh"]);

export function SiteFooter({ site, locale }: { site: FooterSite | null; locale: Locale }) {
  const { t } = useTranslation();
  const onSubscribePage = useMatches().some((m) => SUBSCRIBE_PAGE_IDS.has(m.id));
  const link = "hover:underline focus-visible:underline";
  const defaultMenu = useDefaultFooterMenu(site?.hasFriendLinks ?? false);
  return (
    <footer className="mt-16 border-t border-zinc-200 py-10 text-sm text-zinc-700 dark:border-zinc-800 dark:text-zinc-300">
      <div className="mx-auto grid max-w-4xl gap-8 px-4 md:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="font-semibold text-zinc-900 dark:text-zinc-100">
            {t("footer.about")}
          </h2>
          {site?.about && <p className="mt-2">{site.about}</p>}
          {site && site.socialLinks.length > 0 && (
            <ul aria-label={t("footer.social")} className="mt-3 flex flex-wrap gap-3">
              {site.socialLinks.map(({ network, url }) => (
                <li key={network}>
                  <a href={url} rel="me noopener noreferrer" className={link}>
                    {t(`footer.${network}`)}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="font-semibold text-zinc-900 dark:text-zinc-100">
            {t("footer.quickLinks")}
          </h2>
          <FooterMenu items={site?.menu ?? defaultMenu} linkClass={link} />
        </nav>
        {site && site.popularCategories.length > 0 && (
          <nav aria-labelledby="footer-categories">
            <h2 id="footer-categories" className="font-semibold text-zinc-900 dark:text-zinc-100">
              {t("footer.popularCategories")}
            </h2>
            <ul className="mt-2 space-y-1">
              {site.popularCategories.map((category) => (
                <li key={category.slug}>
                  <Link to={`/categories/${encodeURIComponent(category.slug)}`} className={link}>
                    {category.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {(!onSubscribePage || site?.fediverseHandle) && (
          <div className="space-y-6">
            {!onSubscribePage && <SubscribeBox locale={locale} />}
            {site?.fediverseHandle && <FollowBox handle={site.fediverseHandle} />}
          </div>
        )}
      </div>
      {site?.friendLinks && site.friendLinks.length > 0 && (
        <nav aria-labelledby="footer-friend-links" className="mx-auto mt-8 max-w-4xl px-4">
          <h2 id="footer-friend-links" className="font-semibold text-zinc-900 dark:text-zinc-100">
            <Link to="/links" className={link}>
              {t("friendLinks.footerTitle")}
            </Link>
          </h2>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
            {site.friendLinks.map((friend) => (
              <li key={friend.id}>
                <a href={friend.url} rel="noopener noreferrer" className={link}>
                  {friend.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <p className="mx-auto mt-8 max-w-4xl px-4 text-zinc-600 dark:text-zinc-400">
        {site?.copyright ?? t("footer.copyright", { year: new Date().getUTCFullYear(), siteName: t("siteName") })}
      </p>
      {site?.filing && (site.filing.icp || site.filing.police) ? <Filing filing={site.filing} /> : null}
    </footer>
  );
}
