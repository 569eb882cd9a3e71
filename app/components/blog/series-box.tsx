import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { HTML_LANG } from "../../lib/i18n/locale.ts";
import type { SeriesBox, SeriesPart } from "../../server/repos/series.server.ts";

const LINK = "text-blue-700 underline dark:text-blue-400";

/** A part's title in its own language when it is not the page's. */
const partLang = (p: SeriesPart) => (p.isFallback ? HTML_LANG[p.locale] : undefined);

/** The ordered list of a series' published parts; the one being read is marked, not linked. */
export function SeriesParts({
  parts,
  currentId,
  prefix,
}: {
  parts: readonly SeriesPart[];
  currentId: string | null;
  prefix: string;
}) {
  return (
    <ol className="mt-2 list-decimal space-y-1 pl-6">
      {parts.map((part) => (
        <li key={part.id}>
          {part.id === currentId ? (
            <span aria-current="page" className="font-semibold" lang={partLang(part)}>
              {part.title}
            </span>
          ) : (
            <Link to={`${prefix}/posts/detail/${part.id}`} className={LINK} lang={partLang(part)}>
              {part.title}
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The box on a post page: "Part 2 of 5" of which series, with links to the other published parts. */
export function SeriesBoxNav({ series, postId, prefix }: { series: SeriesBox; postId: string; prefix: string }) {
  const { t } = useTranslation("post");
  return (
    <nav
      aria-labelledby="series-title"
      className="mt-6 rounded-md border border-zinc-200 p-4 text-sm dark:border-zinc-800"
      data-testid="series-box"
    >
      <h2 id="series-title" className="font-semibold">
        {t("series.label")}{" "}
        <Link to={`${prefix}/series/${encodeURIComponent(series.slug)}`} className={LINK}>
          {series.name}
        </Link>
      </h2>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">
        {series.current > 0
          ? t("series.partOf", { n: series.current, total: series.parts.length })
          : t("series.publishedParts", { count: series.parts.length })}
      </p>
      <SeriesParts parts={series.parts} currentId={postId} prefix={prefix} />
    </nav>
  );
}
