import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { SanitizedHtml } from "../../components/ui/sanitized-html.tsx";
import { HTML_LANG } from "../../lib/i18n/locale.ts";
import { contentPageMeta, NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageForReader } from "../../server/pages/page-view.server.ts";
import type { Route } from "./+types/static-page";

export const handle = routePolicy({ cache: "public", writes: "none", js: "lean" });

// A page (docs/decisions/035-pages-and-menus.md): `/{slug}`, and /about and /privacy, whose
// routes come first in the table. Its Markdown in the reader's language, sanitized; a page
// that does not exist (or is a draft) is the reader's 404, as any unknown address.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const slug =
    (params as { slug?: string }).slug ??
    new URL(request.url).pathname
      .replace(/\.data$/, "")
      .split("/")
      .pop() ??
    "";
  const { locale } = getRequest(context);
  return { page: await pageForReader(getApp(context).db, slug, locale), locale };
}

/** A post to a page's address answers as the catch-all did: nothing is there to post to. */
export async function action() {
  throw data(null, { status: 404 });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, "errors.notFoundTitle", [NOINDEX]);
  const { page } = loaderData;
  return contentPageMeta(
    matches,
    page.title,
    page.description
      ? [
          { name: "description", content: page.description },
          { property: "og:description", content: page.description },
        ]
      : [],
  );
}

export default function StaticPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { page, locale } = loaderData;
  const elsewhere = page.contentLocale !== locale;
  return (
    <article
      aria-labelledby="page-title"
      className="prose-page"
      lang={elsewhere ? HTML_LANG[page.contentLocale] : undefined}
    >
      {elsewhere && (
        <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400" lang={HTML_LANG[locale]}>
          {t("page.onlyIn", { language: page.contentLocale === "en" ? "English" : "中文" })}
        </p>
      )}
      <h1 id="page-title" className="text-3xl font-bold tracking-tight">
        {page.title}
      </h1>
      <SanitizedHtml className="markdown mt-6" html={page.html} />
    </article>
  );
}
