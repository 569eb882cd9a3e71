import CODE_COPY_SCRIPT from "virtual:inkwell/code-copy-script";
import readerScriptUrl from "virtual:inkwell/reader-script";
import { type ReactNode, useEffect } from "react";
import { I18nextProvider } from "react-i18next";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
// As a URL, not a side-effect import: the layout links it with a precedence (below).
import appCss from "./app.css?url";
import { BuildWatcher } from "./components/layout/build-watcher.tsx";
import { ErrorPage } from "./components/layout/error-page.tsx";
import { SiteFooter } from "./components/layout/site-footer.tsx";
import { SiteHeader } from "./components/layout/site-header.tsx";
import { JS_FLAG_SCRIPT, THEME_BOOT_SCRIPT } from "./components/layout/theme.tsx";
import { Toasts } from "./components/layout/toasts.tsx";
import { useNonce } from "./components/nonce.tsx";
import { useFallbackLocale } from "./components/request-locale.tsx";
import { isLeanDocument, SPECULATION_RULES } from "./lean/document.ts";
import { LeanDocumentProvider } from "./lean/lean-context.tsx";
import { i18nFor } from "./lib/i18n/i18n.ts";
import { DEFAULT_LOCALE, HTML_LANG, type Locale, withoutLocalePrefix } from "./lib/i18n/locale.ts";
import { LOCALE_MEMORY_SCRIPT } from "./lib/i18n/remember-locale.ts";
import { shellOf } from "./lib/shell.ts";
import { getUser } from "./server/accounts/session.server.ts";
import { getApp, getRequest } from "./server/boot/context.server.ts";
import { federationHost } from "./server/federation/paths.server.ts";
import { clearFlashCookie, flashOptions, hasFlashCookie, readFlash } from "./server/http/flash.server.ts";
import { cachedSiteMenus } from "./server/menus/menus.server.ts";
import { brandView } from "./server/settings/brand-view.server.ts";
import { cachedFooterLinks } from "./server/site/footer-links.server.ts";
import { requestSettings } from "./server/site/request-settings.server.ts";
import { copyrightLine, SOCIAL_NETWORKS } from "./server/site/site-settings.server.ts";
import { cachedCategoryPostCounts } from "./server/taxonomy/popular-categories.server.ts";
import { pickPopularCategories } from "./server/taxonomy/taxonomy.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, buildId, db, federation } = getApp(context);
  const url = new URL(request.url);
  const { locale } = getRequest(context);
  const [user, settings, categoryCounts, enabledLinks] = await Promise.all([
    getUser(context, request),
    requestSettings(context),
    cachedCategoryPostCounts(db),
    cachedFooterLinks(db),
  ]);
  // Friend links listed in the footer only when the admin turned them on (site setting);
  // the footer's link to /links whenever there is at least one enabled link.
  const friendLinks = settings.footerLinks ? enabledLinks : [];
  // The main and footer menus of the page's language (decision 035), cached like the counts.
  const menus = await cachedSiteMenus(db, locale, { hasFriendLinks: enabledLinks.length > 0 });
  const path = url.pathname.replace(/\.data$/, "");
  // A one-time message left by an action: read once, then cleared (documents and .data alike).
  const headers = new Headers();
  const flashOpts = flashOptions(env);
  const flash = readFlash(request, flashOpts.secret);
  if (hasFlashCookie(request)) headers.append("Set-Cookie", clearFlashCookie(flashOpts.secure));
  const value = {
    locale,
    user: user
      ? {
          id: user.id,
          email: user.email,
          // The header's account menu names the person, never their address (issue 46).
          name: user.name.trim() || null,
          isAdmin: user.isAdmin,
          emailVerified: user.emailVerified,
        }
      : null,
    // Admins always see the language buttons (spec); a site setting opens them to everyone.
    showLanguageSwitch: (user?.isAdmin ?? false) || settings.languageButtonsForEveryone,
    publicUrl: env.publicUrl,
    // Admins upload images: the browser checks the size before sending.
    uploadMaxBytes: user?.isAdmin ? env.uploadMaxBytes : null,
    path,
    buildId,
    flash,
    site: {
      name: settings.siteName[locale],
      description: settings.siteDescription[locale],
      about: settings.aboutText[locale],
      socialLinks: SOCIAL_NETWORKS.flatMap((network) =>
        settings.socialLinks[network] ? [{ network, url: settings.socialLinks[network] }] : [],
      ),
      copyright: copyrightLine(settings, locale, new Date().getUTCFullYear()),
      filing: settings.filing,
      // An http(s) URL as it is; a path on this site made absolute (og:image needs a full URL).
      socialImage: settings.socialImage.startsWith("/")
        ? `${env.publicUrl}${settings.socialImage}`
        : settings.socialImage,
      popularCategories: pickPopularCategories(categoryCounts, locale).map(({ slug, name }) => ({ slug, name })),
      friendLinks: friendLinks.map(({ id, name, url }) => ({ id, name, url })),
      hasFriendLinks: enabledLinks.length > 0,
      mainMenu: menus.main,
      menu: menus.footer,
      // The page's language's Fediverse account while federation is on (the follow box, fediverse:creator).
      // The accent's CSS, the logo and the icons (admin/brand).
      brand: brandView(settings.brand, settings.appearance),
      fediverseHandle: federation.statusFor(settings.fediverse.enabled).on
        ? `@${settings.fediverse.handles[locale]}@${federationHost(env.publicUrl)}`
        : null,
    },
  };
  return data(value, { headers });
}

/** Canonical URL and the alternates of this page in each language (spec: hreflang). */
function alternates(publicUrl: string, path: string) {
  const plain = withoutLocalePrefix(path);
  const inLocale = (l: Locale) => `${publicUrl}/${l}${plain === "/" ? "" : plain}`;
  return {
    canonical: `${publicUrl}${path}`,
    links: [
      { tagName: "link", rel: "alternate", hrefLang: "en", href: inLocale("en") },
      { tagName: "link", rel: "alternate", hrefLang: "zh", href: inLocale("zh") },
      { tagName: "link", rel: "alternate", hrefLang: "x-default", href: `${publicUrl}${plain}` },
    ],
  };
}

/** The RSS, Atom and JSON feeds of the page's language, for feed readers (`<link rel="alternate">`). */
function feedLinks(publicUrl: string, locale: Locale, siteName: string) {
  return [
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: `${siteName} (RSS)`,
      href: `${publicUrl}/${locale}/rss.xml`,
    },
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: `${siteName} (Atom)`,
      href: `${publicUrl}/${locale}/atom.xml`,
    },
    {
      tagName: "link",
      rel: "alternate",
      type: "application/feed+json",
      title: `${siteName} (JSON Feed)`,
      href: `${publicUrl}/${locale}/feed.json`,
    },
  ];
}

export function meta({ loaderData }: Route.MetaArgs) {
  const locale: Locale = loaderData?.locale ?? DEFAULT_LOCALE;
  const t = i18nFor(locale).t;
  const name = loaderData?.site.name ?? t("siteName");
  const description = loaderData?.site.description || t("siteDescription");
  const base = [
    { title: name },
    { name: "description", content: description },
    { property: "og:site_name", content: name },
    { property: "og:title", content: name },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:locale", content: locale === "en" ? "en_US" : "zh_CN" },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (!loaderData) return base;
  const { canonical, links } = alternates(loaderData.publicUrl, loaderData.path);
  return [
    ...base,
    { property: "og:url", content: canonical },
    { property: "og:image", content: loaderData.site.socialImage },
    { tagName: "link", rel: "canonical", href: canonical },
    ...links,
    ...feedLinks(loaderData.publicUrl, locale, name),
    ...(loaderData.site.fediverseHandle
      ? [{ name: "fediverse:creator", content: loaderData.site.fediverseHandle }]
      : []),
  ];
}

function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRootData();
  const fallbackLocale = useFallbackLocale();
  const locale = root?.locale ?? fallbackLocale;
  const i18n = i18nFor(locale);
  // An anonymous reader's reading page is a finished document: no React, React Router or
  // i18next in the browser, no hydration data, only the reader script (app/lean/reader.ts).
  const matches = useMatches();
  const lean = isLeanDocument(
    matches.map((match) => match.handle),
    Boolean(root?.user),
    typeof document === "undefined",
  );
  const shell = shellOf(matches);
  // A flag for the browser tests (and nothing else): React has taken over the page.
  // Set here, in the layout, so error pages set it too.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    // The theme script sets the `dark` class before hydration; React must not undo it.
    <html lang={HTML_LANG[locale]} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script nonce={nonce} suppressHydrationWarning>
          {`${JS_FLAG_SCRIPT}${THEME_BOOT_SCRIPT}${LOCALE_MEMORY_SCRIPT}`}
        </script>
        {/* With a precedence React puts the stylesheet ahead of the module preloads it hoists
            into the head: a phone fetches the only render-blocking file first. */}
        <link rel="stylesheet" href={appCss} precedence="default" />
        {root?.site.brand.icons ? (
          <>
            <link rel="icon" href={root.site.brand.icons.favicon} sizes="32x32" type="image/png" />
            <link rel="apple-touch-icon" href={root.site.brand.icons.apple} />
            {/* Named only with an icon of the owner's: a page without one makes no extra request. */}
            <link rel="manifest" href="/manifest.webmanifest" />
          </>
        ) : (
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        )}
        {/* The owner's accent in place of the blue scale (lib/brand.ts) and the reading type; after the stylesheet. */}
        {root?.site.brand.css && (
          <style nonce={nonce} data-brand="">
            {root.site.brand.css}
          </style>
        )}
        <Meta />
        <Links />
      </head>
      {/* Reading pages are a column whose main part grows: the footer stays at the window's foot on short pages. */}
      <body
        className={`min-h-screen bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100 ${shell === "admin" ? "" : "flex flex-col"}`}
      >
        <I18nextProvider i18n={i18n}>
          {/* Around the header and footer too: their links are plain in a lean document (lean/link.tsx). */}
          <LeanDocumentProvider value={lean}>
            <a
              href="#main"
              className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-zinc-900"
            >
              {i18n.t("skipToContent")}
            </a>
            {shell === "admin" ? (
              // The admin's layout draws its own bar, sidebar and main (routes/admin/layout.tsx).
              <>
                <Toasts flash={root?.flash ?? null} />
                {children}
              </>
            ) : (
              <>
                <SiteHeader
                  siteName={root?.site.name ?? i18n.t("siteName")}
                  logo={root?.site.brand.logo ?? null}
                  user={root?.user ?? null}
                  locale={locale}
                  showLanguageSwitch={root?.showLanguageSwitch ?? false}
                  menu={root?.site.mainMenu}
                />
                <Toasts flash={root?.flash ?? null} />
                <main id="main" tabIndex={-1} className="mx-auto w-full max-w-4xl flex-1 px-4 py-8 focus:outline-none">
                  {children}
                </main>
                <SiteFooter site={root?.site ?? null} locale={locale} />
              </>
            )}
          </LeanDocumentProvider>
        </I18nextProvider>
        {lean ? (
          <>
            <script src={readerScriptUrl} defer nonce={nonce} />
            <script type="speculationrules" nonce={nonce}>
              {SPECULATION_RULES}
            </script>
          </>
        ) : (
          <>
            {/* Plain script, not React: code blocks' copy buttons work before (and without) hydration. */}
            <script nonce={nonce} suppressHydrationWarning>
              {CODE_COPY_SCRIPT}
            </script>
            <BuildWatcher buildId={root?.buildId ?? null} />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
