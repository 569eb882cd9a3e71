import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../lean/link.tsx";
import { INSIGHT_RANGES } from "../../lib/insights.ts";

export interface CountRow {
  key: string;
  label: ReactNode;
  count: number;
}

/** A column of an Insights table; numeric ones are right-aligned. */
export interface Column {
  label: string;
  numeric?: boolean;
}

/** A row of an Insights table: one cell per column. */
export interface Row {
  key: string;
  cells: readonly ReactNode[];
}

/** The table itself: a header row, then one row per entry. */
function DataTable({
  columns,
  rows,
  className,
  testId,
}: {
  columns: readonly Column[];
  rows: readonly Row[];
  className: string;
  testId?: string;
}) {
  const align = (c: Column, last: boolean) =>
    `py-1.5 ${last ? "" : "pr-3 "}${c.numeric ? "text-right tabular-nums" : ""}`;
  return (
    <table className={`text-left text-sm ${className}`} data-testid={testId}>
      <thead>
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          {columns.map((c, i) => (
            <th key={c.label} scope="col" className={align(c, i === columns.length - 1)}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-b border-zinc-100 dark:border-zinc-900">
            {columns.map((column, i) => (
              <td
                key={column.label}
                className={`${align(column, i === columns.length - 1)} ${column.numeric ? "" : "break-all"}`}
              >
                {row.cells[i]}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One Insights section: a heading with its CSV link, then the table, or a line when it is empty. */
export function InsightTable({
  id,
  title,
  columns,
  rows,
  csvHref,
  empty,
  note,
  lead,
}: {
  /** Names the section (`insights-{id}`: its heading and test id). */
  id: string;
  title: string;
  columns: readonly Column[];
  rows: readonly Row[];
  /** Where the table's CSV is downloaded. */
  csvHref: string;
  /** What an empty table says (default: nothing recorded). */
  empty?: string;
  /** A line under the table. */
  note?: string;
  /** What comes between the heading and the table. */
  lead?: ReactNode;
}) {
  const { t } = useTranslation("admin");
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
      {lead}
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{empty ?? t("insights.none")}</p>
      ) : (
        <DataTable columns={columns} rows={rows} className="mt-2 w-full" />
      )}
      {note ? <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">{note}</p> : null}
    </section>
  );
}

/** A table of counts, optionally with each row's share of the total. */
export function CountTable({
  column,
  rows,
  share,
  ...section
}: {
  id: string;
  title: string;
  column: string;
  rows: readonly CountRow[];
  csvHref: string;
  /** Show each row's share of the total. */
  share?: boolean;
}) {
  const { t } = useTranslation("admin");
  const total = rows.reduce((n, r) => n + r.count, 0);
  const columns: Column[] = [{ label: column }, { label: t("insights.count"), numeric: true }];
  if (share) columns.push({ label: t("insights.share"), numeric: true });
  return (
    <InsightTable
      {...section}
      columns={columns}
      rows={rows.map((row) => ({
        key: row.key,
        cells: share
          ? [row.label, row.count, total > 0 ? `${Math.round((row.count / total) * 100)} %` : "–"]
          : [row.label, row.count],
      }))}
    />
  );
}

/** A chart's numbers, day by day, behind a disclosure, with their CSV. */
export function ChartData({
  testId,
  title,
  columns,
  days,
  csvHref,
}: {
  testId: string;
  /** The chart's title (names the CSV link). */
  title: string;
  /** The value columns after the day. */
  columns: readonly string[];
  days: readonly { day: string; values: readonly number[] }[];
  csvHref: string;
}) {
  const { t } = useTranslation("admin");
  return (
    <details>
      <summary className="cursor-pointer text-sm text-blue-800 dark:text-blue-300">{t("insights.showData")}</summary>
      <DataTable
        className="mt-2"
        testId={testId}
        columns={[{ label: t("insights.day") }, ...columns.map((label) => ({ label, numeric: true }))]}
        rows={days.map((d) => ({ key: d.day, cells: [d.day, ...d.values] }))}
      />
      <a href={csvHref} download className="mt-2 inline-block text-sm text-blue-800 underline dark:text-blue-300">
        {t("insights.downloadCsv", { table: title })}
      </a>
    </details>
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
