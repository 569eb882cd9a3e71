// The admin lists' table and its row parts: the table with its header and empty state, the
// scroll box, the select-all box, and the cells a row's actions sit in. The search, sort,
// pagination and confirmation parts they go with are in list-parts.tsx.
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../lean/link.tsx";
import { ADMIN_BUTTON, AdminPagination, MoveButtons } from "./list-parts.tsx";

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
