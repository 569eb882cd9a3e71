// The parts of an admin list that reads at a glance: a table that turns into cards below
// 768 px, short coloured status labels, short times in the viewer's zone (named once in the
// column header), language badges, one primary action with the rest in a "more" menu, and an
// empty state that says what to do next. Server-rendered: all of it works without JavaScript.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Link } from "../../lean/link.tsx";
import { formatShortDateTime } from "../../lib/format.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useBrowserTimeZone } from "../ui/local-time.tsx";
import { ADMIN_BUTTON, BAR_BUTTON, BAR_CONTROL } from "./list-parts.tsx";
import { TableScroll } from "./list-table.tsx";

// The bar controls live with the list parts (their search and sort forms use them); a list
// page takes them from here with the rest of the table parts.
export { BAR_BUTTON, BAR_CONTROL };

/** A bar's primary button (import, upload), as tall as its inputs. */
export const PRIMARY_BAR_BUTTON =
  "inline-flex h-9 shrink-0 items-center whitespace-nowrap rounded-md bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60 dark:bg-blue-600 dark:hover:bg-blue-700";

export type LabelTone = "green" | "blue" | "zinc" | "amber" | "red";

const TONES: Record<LabelTone, string> = {
  green: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  blue: "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-200",
  zinc: "bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  red: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** A short coloured label (a status, "featured"): one line, never broken inside a word ("已发布"). */
export function StatusLabel({ tone, children }: { tone: LabelTone; children: ReactNode }) {
  return (
    <span
      className={`inline-block whitespace-nowrap break-keep rounded-full px-2 py-0.5 text-xs font-medium ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

/** The zone the list's times are shown in, for the column header: the viewer's once known, else UTC. */
export function useListTimeZone(): string {
  return useBrowserTimeZone() ?? "UTC";
}

/**
 * A moment in a list row, short ("Nov 28, 14:05") in `zone` (from useListTimeZone, named in
 * the column header); the exact instant stays in `dateTime`.
 */
export function ShortTime({ iso, locale, zone }: { iso: string; locale: Locale; zone: string }) {
  return (
    <time dateTime={iso} className="whitespace-nowrap tabular-nums">
      {formatShortDateTime(iso, locale, zone)}
    </time>
  );
}

/** Which languages an item is written in: a small badge per language ("EN", "中文"). */
export function LanguageBadges({ languages }: { languages: readonly Locale[] }) {
  const { t } = useTranslation("admin");
  return (
    <span className="inline-flex gap-1">
      {languages.map((lang) => (
        <abbr
          key={lang}
          title={t(`table.language.${lang}`)}
          className="whitespace-nowrap rounded border border-zinc-300 px-1 text-[11px] font-medium uppercase leading-4 text-zinc-700 no-underline dark:border-zinc-600 dark:text-zinc-300"
        >
          {t(`table.languageShort.${lang}`)}
        </abbr>
      ))}
    </span>
  );
}

/**
 * A row's secondary actions behind one "More" button: a disclosure (`<details>`), so it opens
 * with the keyboard and without JavaScript. The menu opens in the flow of the row (a table
 * that scrolls sideways would clip a floating one).
 */
export function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useTranslation("admin");
  return (
    <details className="group relative">
      <summary
        aria-label={label}
        className={`${ADMIN_BUTTON} inline-flex cursor-pointer list-none items-center gap-1 whitespace-nowrap [&::-webkit-details-marker]:hidden`}
      >
        {t("table.more")}
        <span aria-hidden="true" className="text-xs group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="mt-2 flex flex-col items-stretch gap-1 [&_a]:block [&_a]:whitespace-nowrap [&_button]:w-full [&_button]:whitespace-nowrap [&_button]:text-left">
        {children}
      </div>
    </details>
  );
}

/**
 * An admin table that reads as cards below 768 px: each row a bordered card, each cell on
 * its own line with its column's name before it (`data-label`), the header row kept for
 * screen readers only. From 768 px up it is a plain table.
 */
export function CardTable({
  columns,
  caption,
  testId,
  children,
}: {
  /** Each column's header: its text (the card's label too) and optional header content. */
  columns: ReadonlyArray<{
    label: string;
    header?: ReactNode;
    numeric?: boolean;
    className?: string;
    /** Shown above the cards too (a "select all" box); other headers are for screen readers there. */
    onCards?: boolean;
  }>;
  caption?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <TableScroll>
      <table className="w-full text-left text-sm max-md:block" data-testid={testId}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="max-md:block">
          <tr className="border-b border-zinc-200 dark:border-zinc-800 max-md:flex max-md:border-0">
            {columns.map((c, i) => (
              <th
                key={c.label}
                scope="col"
                className={`py-2 align-bottom ${i === columns.length - 1 ? "" : "pr-3"} ${c.numeric ? "text-right" : ""} ${c.onCards ? "max-md:block max-md:px-3" : "max-md:sr-only"} ${c.className ?? ""}`}
              >
                {c.header ?? c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-md:block max-md:space-y-3">{children}</tbody>
      </table>
    </TableScroll>
  );
}

/** A CardTable's row. */
export function CardRow({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <tr
      data-testid={testId}
      className="border-b border-zinc-100 align-top dark:border-zinc-900 max-md:block max-md:rounded-lg max-md:border max-md:border-zinc-200 max-md:p-3 max-md:dark:border-zinc-800"
    >
      {children}
    </tr>
  );
}

/**
 * A CardTable's cell; `label` is shown before it on a card (its column's name), unless the
 * cell speaks for itself (`bare`: the title, the actions).
 */
export function CardCell({
  label,
  bare = false,
  numeric = false,
  rowHeader = false,
  className = "",
  children,
}: {
  label: string;
  bare?: boolean;
  numeric?: boolean;
  /** The cell that names its row (`<th scope="row">`, e.g. a user's e-mail). */
  rowHeader?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const Cell = rowHeader ? "th" : "td";
  return (
    <Cell
      scope={rowHeader ? "row" : undefined}
      data-label={bare ? undefined : label}
      className={`py-2 pr-3 max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-2 max-md:py-1 max-md:pr-0 ${
        bare
          ? ""
          : "max-md:before:min-w-20 max-md:before:text-xs max-md:before:text-zinc-600 max-md:before:content-[attr(data-label)] max-md:dark:before:text-zinc-400"
      } ${numeric ? "md:text-right tabular-nums" : ""} ${rowHeader ? "text-left font-normal" : ""} ${className}`}
    >
      {children}
    </Cell>
  );
}

/**
 * What an empty list says, and what to do next: "No drafts — write your first post", the
 * action a link.
 */
export function EmptyState({ text, action }: { text: string; action?: { to: string; label: string } }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 p-6 text-center dark:border-zinc-700">
      <p className="text-zinc-700 dark:text-zinc-300">{text}</p>
      {action && (
        <Link
          to={action.to}
          className="mt-3 inline-block rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
        >
          {action.label}
        </Link>
      )}
    </div>
  );
}

/**
 * A select of a list's bar, as tall as the bar's other controls. In a filter row (`inline`)
 * its label is for screen readers and its first choice names it ("Any status"); it may
 * shrink so the row stays one line, never below a readable width.
 */
export function BarSelect({
  id,
  name,
  label,
  value,
  any,
  options,
  inline = false,
  whole = false,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  /** A first, empty choice ("Any status"). */
  any?: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  inline?: boolean;
  /**
   * In a filter row, as wide as its longest choice and never narrower (a sort order: a few
   * fixed words, "Recently changed"); the other selects give way instead. Not for a menu of
   * names the owner chose, which may be long.
   */
  whole?: boolean;
}) {
  const choices = any === undefined ? options : [{ value: "", label: any }, ...options];
  const box = whole
    ? "shrink-0 max-sm:shrink max-sm:flex-[1_1_40%]"
    : "min-w-24 max-w-40 shrink max-sm:max-w-none max-sm:flex-[1_1_40%]";
  return (
    <div className={inline ? box : "min-w-0"}>
      <label htmlFor={id} className={inline ? "sr-only" : "mb-1 block whitespace-nowrap text-sm font-medium"}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={`${BAR_CONTROL} w-full`}>
        {choices.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** How a filter row's search box and the row itself give way (each a fixed set of classes). */
const FILTER_ROW = { wrap: "", lg: " lg:flex-nowrap", xl: " xl:flex-nowrap" } as const;

/**
 * A list's filter row (posts, media, subscribers, audit): a GET form of controls of one
 * height, so the list's URL says what it shows, with an optional search box first, the
 * row's filter selects (`BarSelect … inline`), an optional sort menu and its button. `keep` carries query values the row
 * does not show (the trash view). `nowrap` names the width from which the row stays on
 * one line; `narrowSearch` keeps the search box to a readable width beside few controls.
 */
export function FilterBar({
  label,
  testId,
  search,
  sort,
  keep = {},
  nowrap = "wrap",
  narrowSearch = false,
  button,
  children,
}: {
  label: string;
  testId: string;
  search?: { id: string; label: string; q: string };
  /** The sort menu, last before the button, as wide as its longest choice. */
  sort?: { id: string; label: string; value: string; options: ReadonlyArray<{ value: string; label: string }> };
  keep?: Record<string, string>;
  nowrap?: keyof typeof FILTER_ROW;
  narrowSearch?: boolean;
  button: string;
  children?: ReactNode;
}) {
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      className={`flex flex-wrap items-center gap-2${FILTER_ROW[nowrap]}`}
      data-testid={testId}
    >
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {search && (
        <div
          className={
            narrowSearch
              ? "min-w-36 max-w-sm flex-1 max-sm:w-full max-sm:max-w-none max-sm:flex-none"
              : "min-w-36 flex-1 max-sm:w-full max-sm:flex-none"
          }
        >
          <label htmlFor={search.id} className="sr-only">
            {search.label}
          </label>
          <input
            id={search.id}
            type="search"
            name="q"
            defaultValue={search.q}
            maxLength={100}
            placeholder={search.label}
            className={`${BAR_CONTROL} w-full`}
          />
        </div>
      )}
      {children}
      {sort && <BarSelect {...sort} name="sort" inline whole />}
      <button type="submit" className={BAR_BUTTON}>
        {button}
      </button>
    </Form>
  );
}
