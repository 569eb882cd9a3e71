// The parts every admin list is built from, in one module (~500 lines) on purpose: the
// search and sort forms, the table, pagination, row actions and confirmations share one
// look and one URL scheme (useListUrls), and a list page imports most of them together.
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useSearchParams } from "react-router";
import { Link } from "../../lean/link.tsx";
import type { Locale } from "../../lib/i18n/locale.ts";
import { SelectField } from "../ui/field.tsx";
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

export interface AdminColumn {
  label: string;
  /** Numbers line up on the right. */
  numeric?: boolean;
}

/**
 * An admin list's table: its header row from `columns`, the rows as children, or
 * the `empty` text when there are none (no search match, or nothing yet).
 */
export function AdminTable({
  columns,
  rowCount,
  empty,
  caption,
  pagination,
  minWidth,
  testId,
  children,
}: {
  columns: ReadonlyArray<AdminColumn | string | false>;
  rowCount: number;
  empty: string;
  caption?: string;
  /** The list's pages, shown under the table. */
  pagination?: { page: number; pageCount: number; withParams: (changes: Record<string, string>) => string };
  /** How narrow the table may get before it scrolls sideways (a `min-w-*` class). */
  minWidth?: string;
  /** The table's `data-testid`. */
  testId?: string;
  children: ReactNode;
}) {
  if (rowCount === 0) return <p className="text-zinc-600 dark:text-zinc-400">{empty}</p>;
  const shown = columns.filter((c): c is AdminColumn | string => c !== false);
  return (
    <>
      <AdminTableBody columns={shown} caption={caption} minWidth={minWidth} testId={testId}>
        {children}
      </AdminTableBody>
      {pagination && <AdminPagination {...pagination} />}
    </>
  );
}

function AdminTableBody({
  columns: shown,
  caption,
  minWidth,
  testId,
  children,
}: {
  columns: ReadonlyArray<AdminColumn | string>;
  caption?: string;
  minWidth?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <TableScroll>
      <table className={minWidth ? tableClass(minWidth) : TABLE} data-testid={testId}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            {shown.map((column, i) => {
              const { label, numeric } = typeof column === "string" ? { label: column, numeric: false } : column;
              const last = i === shown.length - 1;
              return (
                <th key={label} scope="col" className={`py-2 ${last ? "" : "pr-3"} ${numeric ? "text-right" : ""}`}>
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

const TABLE = "w-full text-left text-sm";

/**
 * The box an admin table sits in: on a narrow screen the table keeps its columns
 * readable and this box scrolls sideways instead (give the table a `min-w-*`).
 */
export function TableScroll({ children }: { children: ReactNode }) {
  // Focusable, so a keyboard can scroll a table that has no link or button in its rows
  // (axe: scrollable-region-focusable).
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard
    <div tabIndex={0} className="overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600">
      {children}
    </div>
  );
}

/** The class of an admin table that scrolls in a TableScroll: full width, never narrower than `minWidth`. */
export const tableClass = (minWidth: string) => `${TABLE} ${minWidth}`;

/**
 * An e-mail address in an admin table: one line, cut with an ellipsis past a
 * readable width. The full address is the link's text (what screen readers and
 * copy get), its title (hover), and shows whole while the link has focus
 * (keyboard); the link writes to the address.
 */
export function EmailText({ email, className = "" }: { email: string; className?: string }) {
  return (
    <a
      href={`mailto:${email}`}
      title={email}
      className={`block max-w-64 truncate text-blue-800 hover:underline focus:overflow-visible focus:whitespace-normal focus:break-all dark:text-blue-300 ${className}`.trim()}
    >
      {email}
    </a>
  );
}

/** What a "select all" box shows for its rows' boxes: checked when all are, mixed when some are. */
export function selectAllState(rows: ReadonlyArray<boolean>): { checked: boolean; indeterminate: boolean } {
  const on = rows.filter(Boolean).length;
  return { checked: on > 0 && on === rows.length, indeterminate: on > 0 && on < rows.length };
}

/**
 * A table header's "select all" box for the row checkboxes named `name` in the same
 * form. An enhancement: it appears once the page runs JavaScript (without it the
 * rows are still chosen one by one, and `fallback` stays as the column's name).
 * Give it a `key` of the rows' ids so a new page of rows starts it afresh.
 */
export function SelectAllBox({
  name,
  label,
  fallback,
  formId,
  labelClassName = "sr-only",
}: {
  name: string;
  /** The label's class: screen readers only unless said (cards show it beside the box). */
  labelClassName?: string;
  /** The form's id, when the box sits outside it (its rows then name it with `form=` too). */
  formId?: string;
  /** The accessible name ("Select all comments on this page"). */
  label: string;
  /** The header's text until hydration (screen-reader only). */
  fallback: string;
}) {
  const [ready, setReady] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => setReady(true), []);
  useEffect(() => {
    const self = box.current;
    const form = self?.form;
    if (!ready || !self || !form) return;
    // The form's elements, not its descendants: a row's box may sit outside the form (`form=`).
    const boxes = () =>
      [...form.elements].filter(
        (el): el is HTMLInputElement => el instanceof HTMLInputElement && el.type === "checkbox" && el.name === name,
      );
    const sync = () => {
      const rows = boxes();
      const state = selectAllState(rows.map((r) => r.checked));
      self.checked = state.checked;
      self.indeterminate = state.indeterminate;
    };
    const onChange = (event: Event) => {
      if (event.target === self) {
        for (const row of boxes()) row.checked = self.checked;
      }
      sync();
    };
    sync();
    // A change event from a box outside the form reaches the document, not the form.
    const doc = form.ownerDocument;
    doc.addEventListener("change", onChange);
    return () => doc.removeEventListener("change", onChange);
  }, [ready, name]);
  if (!ready) return <span className="sr-only">{fallback}</span>;
  return (
    <label className="inline-flex items-center">
      <input ref={box} type="checkbox" data-select-all="" form={formId} />
      <span className={labelClassName}>{label}</span>
    </label>
  );
}

/** A row's last cell: its action links and buttons, side by side. */
export function ActionsCell({ children }: { children: ReactNode }) {
  return (
    <td className="py-2">
      <div className="flex flex-wrap gap-2">{children}</div>
    </td>
  );
}

/** A row's action link (edit, view, delete): a small button-like link with its own accessible name. */
export function RowLink({
  to,
  label,
  text,
  danger = false,
}: {
  to: string;
  /** The accessible name, naming the row ("Edit Rust links"). */
  label?: string;
  text: string;
  danger?: boolean;
}) {
  return (
    <Link to={to} className={`${ADMIN_BUTTON}${danger ? " text-red-700 dark:text-red-400" : ""}`} aria-label={label}>
      {text}
    </Link>
  );
}

/** A row's edit and delete links, named after the row ("Edit “Rust weekly”"). */
export function EditDeleteLinks({ name, editTo, deleteTo }: { name: string; editTo: string; deleteTo: string }) {
  const { t } = useTranslation("admin");
  return (
    <>
      <RowLink to={editTo} label={t("list.editNamed", { name })} text={t("list.edit")} />
      <RowLink to={deleteTo} label={t("list.deleteNamed", { name })} text={t("list.delete")} danger />
    </>
  );
}

/** The actions of a row in a hand-ordered list (slides, links): ↑, ↓, edit and delete. */
export function OrderedRowActions({
  id,
  name,
  position,
  total,
  back,
  editTo,
  deleteTo,
}: {
  id: string;
  name: string;
  position: number;
  total: number;
  back: string;
  editTo: string;
  deleteTo: string;
}) {
  return (
    <ActionsCell>
      <MoveButtons id={id} name={name} position={position} total={total} back={back} />
      <EditDeleteLinks name={name} editTo={editTo} deleteTo={deleteTo} />
    </ActionsCell>
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
