import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { AdminListHeader } from "../../components/admin/list-parts.tsx";
import { Link } from "../../lean/link.tsx";
import { ADMIN_DOCS, docHref, isAdminDoc } from "../../lib/admin-docs.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { readAdminDoc } from "../../server/admin/docs.server.ts";
import { getRequest } from "../../server/boot/context.server.ts";
import type { Route } from "./+types/docs";

/**
 * The server guides (docs/*.md) inside the admin: what the admin's pages point to where a
 * setting belongs to the server's configuration rather than to a form. Admins only.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { locale } = getRequest(context);
  if (params.page === undefined) return { doc: null, locale };
  if (!isAdminDoc(params.page)) throw data(null, { status: 404 });
  const doc = await readAdminDoc(params.page);
  if (!doc) throw data(null, { status: 404 });
  return { doc, locale };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminTools:docs.title", [NOINDEX]);
}

export default function AdminDocs({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminTools");
  const { doc, locale } = loaderData;
  return (
    <section
      aria-labelledby={doc ? undefined : "docs-title"}
      aria-label={doc ? doc.title : undefined}
      className="max-w-4xl space-y-6"
    >
      {doc ? (
        <>
          <Link to="/admin/docs" className="text-sm text-blue-800 underline dark:text-blue-300">
            {t("docs.back")}
          </Link>
          {locale === "zh" && <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("docs.englishOnly")}</p>}
          <article
            lang="en"
            className="markdown min-w-0 overflow-x-auto"
            // Sanitized by the site's Markdown renderer (the same as posts'); the files are the project's own.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitized on the server
            dangerouslySetInnerHTML={{ __html: doc.html }}
          />
        </>
      ) : (
        <>
          <AdminListHeader id="docs-title" title={t("docs.title")} />
          <p className="text-zinc-700 dark:text-zinc-300">{t("docs.intro")}</p>
          <ul className="space-y-3">
            {ADMIN_DOCS.map((name) => (
              <li key={name}>
                <Link to={docHref(name)} className="font-medium text-blue-800 underline dark:text-blue-300">
                  {t(`docs.pages.${name}.title`)}
                </Link>
                <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`docs.pages.${name}.about`)}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
