import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { SeriesParts } from "../../components/blog/post-parts.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsPosts } from "../../server/cache/page-tags.server.ts";
import { findPublicSeries } from "../../server/taxonomy/series.server.ts";
import type { Route } from "./+types/series";

export const handle = routePolicy({ cache: "public", js: "lean" });

// `/series/{slug}` (and /en, /zh): a series' name, description and its published parts in
// order. Unknown, or nothing published yet: 404.
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = getApp(context);
  const req = getRequest(context);
  // Slugs are short ASCII; anything longer cannot exist and is not worth a query.
  if (params.slug.length > 200) throw data(null, { status: 404 });
  const series = await findPublicSeries(db, params.slug, req.locale);
  if (!series) throw data(null, { status: 404 });
  pageShowsPosts(
    req,
    series.parts.map((p) => p.id),
  );
  return { series, prefix: req.prefix };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta(matches, loaderData ? { text: loaderData.series.name } : null);
}

export default function SeriesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("post");
  const { series, prefix } = loaderData;
  return (
    <section aria-labelledby="series-title">
      <p className="text-sm font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        {t("series.label")}
      </p>
      <h1 id="series-title" className="text-3xl font-bold tracking-tight">
        {series.name}
      </h1>
      {series.description && <p className="mt-3 text-zinc-700 dark:text-zinc-300">{series.description}</p>}
      <SeriesParts parts={series.parts} currentId="" prefix={prefix} />
    </section>
  );
}
