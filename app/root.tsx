import { type ReactNode, useMemo } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { useNonce } from "./components/nonce.tsx";
import { createI18n } from "./lib/i18n/i18n.ts";
import { DEFAULT_LOCALE, HTML_LANG, type Locale, localeFromRequest } from "./lib/i18n/locale.ts";
import { getUser } from "./server/auth/session.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const locale = localeFromRequest(request);
  const user = await getUser(context, request);
  return {
    locale,
    user: user ? { id: user.id, email: user.email, isAdmin: user.isAdmin, emailVerified: user.emailVerified } : null,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  const locale: Locale = loaderData?.locale ?? DEFAULT_LOCALE;
  const t = createI18n(locale).t;
  return [
    { title: t("siteName") },
    { name: "description", content: t("siteDescription") },
    { property: "og:site_name", content: t("siteName") },
  ];
}

function useRootLocale(): Locale {
  const data = useRouteLoaderData<typeof loader>("root");
  return data?.locale ?? DEFAULT_LOCALE;
}

function SiteHeader() {
  const { t } = useTranslation();
  const user = useRouteLoaderData<typeof loader>("root")?.user ?? null;
  return (
    <header className="border-b border-zinc-200 dark:border-zinc-800">
      <nav aria-label={t("nav.label")} className="mx-auto flex max-w-4xl items-center gap-6 px-4 py-3">
        <Link to="/" className="text-lg font-semibold">
          {t("siteName")}
        </Link>
        <ul className="flex gap-4 text-sm">
          <li>
            <Link to="/" className="hover:underline">
              {t("nav.home")}
            </Link>
          </li>
          <li>
            <Link to="/posts" className="hover:underline">
              {t("nav.allBlogs")}
            </Link>
          </li>
        </ul>
        <div className="ml-auto flex items-center gap-4 text-sm">
          {user ? (
            <>
              <Link
                to="/account"
                data-testid="nav-user"
                title={t("nav.signedInAs", { email: user.email })}
                className="hover:underline"
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
              <Link to="/login" className="hover:underline">
                {t("nav.login")}
              </Link>
              <Link to="/register" className="hover:underline">
                {t("nav.register")}
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}

function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 border-t border-zinc-200 py-6 text-center text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
      <p>{t("footer.copyright", { year: new Date().getUTCFullYear(), siteName: t("siteName") })}</p>
    </footer>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const locale = useRootLocale();
  const i18n = useMemo(() => createI18n(locale), [locale]);
  return (
    <html lang={HTML_LANG[locale]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <I18nextProvider i18n={i18n}>
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-zinc-900"
          >
            {i18n.t("skipToContent")}
          </a>
          <SiteHeader />
          <main id="main" className="mx-auto max-w-4xl px-4 py-8">
            {children}
          </main>
          <SiteFooter />
        </I18nextProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const showDetails = import.meta.env.DEV && error instanceof Error;
  return (
    <section aria-labelledby="error-title" className="py-12">
      <h1 id="error-title" className="text-2xl font-bold">
        {notFound ? t("errors.notFoundTitle") : t("errors.serverTitle")}
      </h1>
      <p className="mt-4" data-testid="error-message">
        {notFound ? t("errors.notFound", { path: `${location.pathname}${location.search}` }) : t("errors.server")}
      </p>
      {!notFound && <p className="mt-2 text-zinc-600 dark:text-zinc-400">{t("errors.serverHint")}</p>}
      {showDetails && (
        <pre className="mt-6 overflow-auto rounded bg-zinc-100 p-4 text-xs dark:bg-zinc-900">{error.stack}</pre>
      )}
      <p className="mt-8">
        <Link to="/" reloadDocument className="text-blue-700 underline dark:text-blue-400">
          {t("errors.backHome")}
        </Link>
      </p>
    </section>
  );
}
