import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { INSIGHT_RANGES } from "../../lib/insights.ts";

export interface CountRow {
  key: string;
  label: ReactNode;
  count: number;
}

/** One Insights table: a count per row, optionally each row's share, with its CSV link. */
export function CountTable({
  id,
  title,
  column,
  rows,
  csvHref,
  share,
}: {
  /** Names the section (`insights-{id}`: its heading and test id). */
  id: string;
  title: string;
  column: string;
  rows: readonly CountRow[];
  /** Where the table's CSV is downloaded. */
  csvHref: string;
  /** Show each row's share of the total. */
  share?: boolean;
}) {
  const { t } = useTranslation("admin");
  const total = rows.reduce((n, r) => n + r.count, 0);
  return (
    <section aria-labelledby={`insights-${id}`} className="min-w-0" data-testid={`insights-${id}`}>
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={`insights-${id}`} className="text-lg font-semibold">
          {title}
        </h2>
        {rows.length > 0 ? (
          <a
            href={csvHref}
            download
            className="text-sm text-blue-800 underline dark:text-blue-300"
            aria-label={t("insights.downloadCsv", { table: title })}
          >
            {t("insights.csv")}
          </a>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t("insights.none")}</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-1.5 pr-3">
                {column}
              </th>
              <th scope="col" className="py-1.5 pr-3 text-right">
                {t("insights.count")}
              </th>
              {share ? (
                <th scope="col" className="py-1.5 text-right">
                  {t("insights.share")}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-1.5 pr-3 break-all">{row.label}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{row.count}</td>
                {share ? (
                  <td className="py-1.5 text-right tabular-nums">
                    {total > 0 ? `${Math.round((row.count / total) * 100)} %` : "–"}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The period switch: a link per offered range, the current one marked. */
export function RangeNav({ base, current }: { base: string; current: number }) {
  const { t } = useTranslation("admin");
  return (
    <nav aria-label={t("insights.range")}>
      <ul className="flex flex-wrap gap-2 text-sm">
        {INSIGHT_RANGES.map((days) => (
          <li key={days}>
            <Link
              to={`${base}?days=${days}`}
              aria-current={days === current ? "page" : undefined}
              className="inline-block rounded-md border border-zinc-300 px-3 py-1 aria-[current]:bg-blue-700 aria-[current]:text-white dark:border-zinc-700"
            >
              {t("insights.days", { count: days })}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
