// The parts every admin list is built from: the search and sort forms, pagination, row
// actions and confirmations share one look and one URL scheme (useListUrls). The table and
// its row parts are in list-table.tsx.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, useSearchParams } from "react-router";
import { Link } from "../../lean/link.tsx";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useDateTimeFormatter } from "../ui/local-time.tsx";

/**
 * The height, padding and type size every control of a list's bars shares (search box,
 * selects, buttons), so a filter row lines up whatever it holds.
 */
export const BAR_CONTROL =
  "block h-9 rounded-md border border-zinc-300 bg-white px-3 text-sm leading-none dark:border-zinc-700 dark:bg-zinc-900";
/** A bar's button, as tall as its inputs. */
export const BAR_BUTTON =
  "inline-flex h-9 shrink-0 items-center whitespace-nowrap rounded-md border border-zinc-300 px-3 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

export const ADMIN_BUTTON =
  "rounded-md border border-zinc-300 px-2 py-1 text-sm hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800";

/**
 * The current list URL without a pending confirmation, and a builder for the
 * same list with some query values changed (page, sort, confirmDelete…).
 */
export function useListUrls(basePath: string): {
  back: string;
  withParams: (changes: Record<string, string>) => string;
} {
  const [params] = useSearchParams();
  const listParams = new URLSearchParams(params);
  listParams.delete("confirmDelete");
  const back = `${basePath}${listParams.size ? `?${listParams}` : ""}`;
  const withParams = (changes: Record<string, string>) => {
    const next = new URLSearchParams(listParams);
    for (const [k, v] of Object.entries(changes)) next.set(k, v);
    return `${basePath}?${next}`;
  };
  return { back, withParams };
}

/** A GET search box for an admin list (keeps other query values out: a new search starts at page 1). */
export function AdminSearch({ id, label, button, q }: { id: string; label: string; button: string; q: string }) {
  return (
    <Form method="get" role="search" className="flex min-w-0 gap-2" data-testid={`${id}-filters`}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={q}
        maxLength={100}
        placeholder={label}
        className={`${BAR_CONTROL} w-full max-w-sm`}
      />
      <button type="submit" className={BAR_BUTTON}>
        {button}
      </button>
    </Form>
  );
}

const SEARCH_INPUT = `${BAR_CONTROL} w-full max-w-sm`;

/**
 * A GET search box with a labelled sort menu for an admin list. `keep` carries
 * other query values (a status tab) into the new search; the page starts at 1.
 */
export function AdminSearchSort({
  idPrefix,
  labels,
  q,
  sort,
  sorts,
  keep = {},
}: {
  idPrefix: string;
  labels: { search: string; sort: string; button: string };
  q: string;
  sort: string;
  /** Each sort key with its translated name, in menu order. */
  sorts: ReadonlyArray<{ key: string; label: string }>;
  keep?: Record<string, string>;
}) {
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-2" data-testid={`${idPrefix}-filters`}>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <label htmlFor={`${idPrefix}-q`} className="mb-1 block text-sm font-medium">
          {labels.search}
        </label>
        <input id={`${idPrefix}-q`} type="search" name="q" defaultValue={q} maxLength={100} className={SEARCH_INPUT} />
      </div>
      <div>
        <label htmlFor={`${idPrefix}-sort`} className="mb-1 block text-sm font-medium">
          {labels.sort}
        </label>
        <select id={`${idPrefix}-sort`} name="sort" defaultValue={sort} className={BAR_CONTROL}>
          {sorts.map(({ key, label }) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={BAR_BUTTON}>
        {labels.button}
      </button>
    </Form>
  );
}

/** Previous / page n of m / next, as links that keep the list's query. */
export function AdminPagination({
  page,
  pageCount,
  withParams,
}: {
  page: number;
  pageCount: number;
  withParams: (changes: Record<string, string>) => string;
}) {
  const { t } = useTranslation("admin");
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={t("list.pagination")} className="flex items-center justify-between text-sm">
      {page > 1 ? <Link to={withParams({ page: String(page - 1) })}>{t("list.previous")}</Link> : <span />}
      <span aria-current="page">{t("list.pageOf", { page, count: pageCount })}</span>
      {page < pageCount ? <Link to={withParams({ page: String(page + 1) })}>{t("list.next")}</Link> : <span />}
    </nav>
  );
}

/**
 * The confirmation step before a delete: a panel with the real delete form
 * and a way back. It is reached by a link (`?confirmDelete=id`), so it works
 * without JavaScript and never relies on a browser dialog.
 */
export function ConfirmDelete({
  id,
  intent = "delete",
  ...panel
}: {
  text: string;
  id: string;
  back: string;
  /** The intent the confirmed form posts ("trash", "purge"…); "delete" unless said. */
  intent?: string;
  /** The confirming button's text; "Delete" unless said. */
  submit?: string;
  /** Extra fields, e.g. where a category's posts go. */
  children?: ReactNode;
}) {
  return <ConfirmPanel fields={{ intent, id }} {...panel} />;
}

/**
 * A confirmation panel posting `fields` (a list posts each value under the name)
 * with `back`; `children` go inside the form, above its buttons.
 */
export function ConfirmPanel({
  text,
  fields,
  back,
  submit,
  children,
}: {
  text: string;
  fields: Record<string, string | readonly string[]>;
  back: string;
  submit?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation("admin");
  return (
    <div
      role="alertdialog"
      aria-labelledby="confirm-text"
      className="rounded-lg border border-red-300 bg-red-50 p-4 dark:border-red-800 dark:bg-red-950"
    >
      <p id="confirm-text">{text}</p>
      <Form method="post" className="mt-3 space-y-3">
        {Object.entries(fields).flatMap(([name, value]) =>
          (typeof value === "string" ? [value] : value).map((v) => (
            <input key={`${name}=${v}`} type="hidden" name={name} value={v} />
          )),
        )}
        <input type="hidden" name="back" value={back} />
        {children}
        <div className="flex gap-3">
          <button type="submit" className="rounded-md bg-red-700 px-3 py-1.5 text-white hover:bg-red-800">
            {submit ?? t("list.delete")}
          </button>
          <Link to={back} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700">
            {t("list.cancel")}
          </Link>
        </div>
      </Form>
    </div>
  );
}

/**
 * ↑ / ↓ for a row of a hand-ordered list (slides, links): each posts
 * `intent=move` with the row's new 0-based position; the keyboard's way to reorder.
 */
export function MoveButtons({
  id,
  name,
  position,
  total,
  back,
}: {
  id: string;
  /** The row's name, in the buttons' accessible names ("Move “Rust weekly” up"). */
  name: string;
  position: number;
  total: number;
  back: string;
}) {
  const { t } = useTranslation("admin");
  const upLabel = t("list.moveUp", { name });
  const downLabel = t("list.moveDown", { name });
  const move = (to: number, label: string, disabled: boolean, arrow: string) => (
    <Form method="post">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="position" value={to} />
      <input type="hidden" name="back" value={back} />
      <button type="submit" className={ADMIN_BUTTON} disabled={disabled} aria-label={label}>
        {arrow}
      </button>
    </Form>
  );
  return (
    <>
      {move(Math.max(0, position - 1), upLabel, position === 0, "↑")}
      {move(position + 1, downLabel, position === total - 1, "↓")}
    </>
  );
}

/** An admin list's heading, with the link to add a new item when there is one. */
export function AdminListHeader({
  id,
  title,
  create,
}: {
  id: string;
  title: string;
  create?: { to: string; label: string };
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <h1 id={id} className="text-3xl font-bold tracking-tight">
        {title}
      </h1>
      {create && (
        <Link to={create.to} className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800">
          {create.label}
        </Link>
      )}
    </div>
  );
}

/** A GET sort menu beside an admin list's search box; it keeps the search (`q`) and starts at page 1. */
export function AdminSortForm({
  id,
  label,
  button,
  sort,
  sorts,
  q,
}: {
  id: string;
  label: string;
  button: string;
  sort: string;
  sorts: ReadonlyArray<{ key: string; label: string }>;
  q: string;
}) {
  return (
    <Form method="get" className="flex items-end gap-2" data-testid={`${id}-filters`}>
      {q && <input type="hidden" name="q" value={q} />}
      <div>
        <label htmlFor={id} className="mb-1 block whitespace-nowrap text-sm font-medium">
          {label}
        </label>
        <select id={id} name="sort" defaultValue={sort} className={BAR_CONTROL}>
          {sorts.map(({ key, label: text }) => (
            <option key={key} value={key}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={BAR_BUTTON}>
        {button}
      </button>
    </Form>
  );
}

/** When a scheduled item (a slide, an ad) shows, in words: "From …", "Until …", "… – …" or "Always". */
export function ShowingWindow({
  item,
  locale,
}: {
  item: { startsAt: string | null; endsAt: string | null };
  locale: Locale;
}) {
  const { t } = useTranslation("admin");
  const formatDateTime = useDateTimeFormatter(locale);
  const from = item.startsAt ? formatDateTime(item.startsAt) : null;
  const until = item.endsAt ? formatDateTime(item.endsAt) : null;
  if (from && until) return <>{t("list.window.between", { from, until })}</>;
  if (from) return <>{t("list.window.from", { date: from })}</>;
  if (until) return <>{t("list.window.until", { date: until })}</>;
  return <>{t("list.window.always")}</>;
}

/** A row's one-button form: posts `intent` for row `id`, then the list comes back as it was. */
export function IntentButton({
  id,
  intent,
  back,
  text,
  label,
  danger = false,
}: {
  id: string;
  intent: string;
  back: string;
  text: string;
  /** The accessible name, naming the row ("Ban ann@example.com"). */
  label: string;
  danger?: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        className={`${ADMIN_BUTTON}${danger ? " text-red-700 dark:text-red-400" : ""}`}
        aria-label={label}
      >
        {text}
      </button>
    </Form>
  );
}
