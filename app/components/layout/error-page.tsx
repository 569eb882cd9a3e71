import { useTranslation } from "react-i18next";
import { Form, isRouteErrorResponse, useLocation, useRouteLoaderData } from "react-router";
import { Link } from "../../lean/link.tsx";
import { DEFAULT_LOCALE, HTML_LANG, type Locale, localePrefix } from "../../lib/i18n/locale.ts";
import { isNotFoundHelp, type NotFoundHelp } from "../../lib/not-found.ts";

/** What a 404 offers instead: a search form and the latest posts (their data came with the error). */
function NotFoundHelpList({ help }: { help: NotFoundHelp | null }) {
  const { t } = useTranslation();
  const location = useLocation();
  const prefix = localePrefix(location.pathname);
  const root = useRouteLoaderData("root") as { locale?: Locale } | undefined;
  const locale = root?.locale ?? DEFAULT_LOCALE;
  const posts = help?.recentPosts ?? [];
  return (
    <>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">{t("errors.notFoundHint")}</p>
      <Form method="get" action={`${prefix}/search`} role="search" className="mt-6 max-w-xl">
        <label htmlFor="not-found-q" className="block text-sm font-medium">
          {t("errors.notFoundSearch")}
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id="not-found-q"
            type="search"
            name="q"
            enterKeyHint="search"
            className="block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          />
          <button
            type="submit"
            className="shrink-0 whitespace-nowrap rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2 dark:bg-blue-600 dark:hover:bg-blue-700"
          >
            {t("errors.notFoundSearchButton")}
          </button>
        </div>
      </Form>
      {posts.length > 0 && (
        <section aria-labelledby="not-found-recent" className="mt-8">
          <h2 id="not-found-recent" className="text-lg font-semibold">
            {t("errors.notFoundRecent")}
          </h2>
          <ul className="mt-3 space-y-2">
            {posts.map((post) => (
              <li key={post.id} lang={post.locale === locale ? undefined : HTML_LANG[post.locale]}>
                <Link
                  to={`${prefix}/posts/detail/${post.id}`}
                  reloadDocument
                  className="text-blue-700 underline dark:text-blue-400"
                >
                  {post.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/**
 * What a page that failed shows (the root's error boundary; the admin's shows it inside
 * its own layout): the not-found page with its search and latest posts, or the reason.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  const forbidden = status === 403;
  const signedOut = status === 401;
  // A request the server could not take (a body that is not a form, a bad parameter): not our failure.
  const badRequest = status >= 400 && status < 500 && !forbidden && !signedOut;
  const showDetails = import.meta.env.DEV && error instanceof Error;
  const notFoundHelp = isRouteErrorResponse(error) && isNotFoundHelp(error.data) ? error.data : null;
  if (notFound) {
    // The spec's message is the page's heading: said once, not under a title saying it again.
    return (
      <section aria-labelledby="error-title" className="py-12">
        <h1
          id="error-title"
          data-testid="error-message"
          className="text-2xl font-bold [overflow-wrap:anywhere] [word-break:keep-all]"
        >
          {t("errors.notFound", { path: `${location.pathname}${location.search}` })}
        </h1>
        <NotFoundHelpList help={notFoundHelp} />
        <p className="mt-8">
          <Link to="/" reloadDocument className="text-blue-700 underline dark:text-blue-400">
            {t("errors.backHome")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="error-title" className="py-12">
      <h1 id="error-title" className="text-2xl font-bold">
        {forbidden
          ? t("errors.forbiddenTitle")
          : signedOut
            ? t("errors.signedOutTitle")
            : badRequest
              ? t("errors.badRequestTitle")
              : t("errors.serverTitle")}
      </h1>
      <p className="mt-4" data-testid="error-message">
        {forbidden
          ? t("errors.forbidden")
          : signedOut
            ? t("errors.signedOut")
            : badRequest
              ? t("errors.badRequest")
              : t("errors.server")}
      </p>
      {signedOut && (
        <p className="mt-4">
          <Link
            to={`/login?redirectTo=${encodeURIComponent(`${location.pathname}${location.search}`)}`}
            reloadDocument
            className="text-blue-700 underline dark:text-blue-400"
          >
            {t("nav.login")}
          </Link>
        </p>
      )}
      {!forbidden && !signedOut && !badRequest && (
        <p className="mt-2 text-zinc-600 dark:text-zinc-400">{t("errors.serverHint")}</p>
      )}
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
