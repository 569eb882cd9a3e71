import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, useLocation } from "react-router";
import { Link } from "../../lean/link.tsx";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";

/**
 * The admin pages' error view: 403 says the page is for admins (requireAdmin's
 * answer to a signed-in reader); 404 and other errors look like the site's own.
 */
export function EditorErrorBoundary({ error }: { error: unknown }) {
  useAdminStrings();
  const { t } = useTranslation();
  const { t: te } = useTranslation("editor");
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const [title, message] =
    status === 403
      ? [te("forbidden.title"), te("forbidden.body")]
      : status === 404
        ? [t("errors.notFoundTitle"), t("errors.notFound", { path: `${location.pathname}${location.search}` })]
        : [t("errors.serverTitle"), t("errors.server")];
  return (
    <section aria-labelledby="error-title" className="py-12">
      <h1 id="error-title" className="text-2xl font-bold">
        {title}
      </h1>
      <p className="mt-4" data-testid="error-message">
        {message}
      </p>
      {status >= 500 && <p className="mt-2 text-zinc-600 dark:text-zinc-400">{t("errors.serverHint")}</p>}
      <p className="mt-8">
        <Link to="/" reloadDocument className="text-blue-700 underline dark:text-blue-400">
          {t("errors.backHome")}
        </Link>
      </p>
    </section>
  );
}
