import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { SanitizedHtml } from "../../components/ui/sanitized-html.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getRequest } from "../../server/boot/context.server.ts";
import { markdownModule } from "../../server/render/markdown-load.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/static-page";

export const handle = routePolicy({ cache: "public", js: "lean" });

const PAGES = { about: "pages.aboutTitle", privacy: "pages.privacyTitle" } as const;
type PageName = keyof typeof PAGES;

// /about and /privacy: Markdown from the site settings, per language, sanitized.
export async function loader({ request, context }: Route.LoaderArgs) {
  const name =
    new URL(request.url).pathname
      .replace(/\.data$/, "")
      .split("/")
      .pop() ?? "";
  if (!(name in PAGES)) throw data(null, { status: 404 });
  const page = name as PageName;
  const locale = getRequest(context).locale;
  const settings = await requestSettings(context);
  const { renderMarkdownCached } = await markdownModule();
  return { page, titleKey: PAGES[page], html: renderMarkdownCached(settings.pages[page][locale]) };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta(matches, loaderData?.titleKey ?? null);
}

export default function StaticPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <article aria-labelledby="page-title" className="prose-page">
      <h1 id="page-title" className="text-3xl font-bold tracking-tight">
        {t(loaderData.titleKey)}
      </h1>
      <SanitizedHtml className="markdown mt-6" html={loaderData.html} />
    </article>
  );
}
