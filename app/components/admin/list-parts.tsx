import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSearchParams } from "react-router";

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
    <Form method="get" role="search" className="flex gap-2">
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
        className="w-full max-w-sm rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <button type="submit" className={ADMIN_BUTTON}>
        {button}
      </button>
    </Form>
  );
}

const SEARCH_INPUT =
  "w-full max-w-sm rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900";

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
    <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <label htmlFor={`${idPrefix}-q`} className="block text-sm font-medium">
          {labels.search}
        </label>
        <input id={`${idPrefix}-q`} type="search" name="q" defaultValue={q} maxLength={100} className={SEARCH_INPUT} />
      </div>
      <div>
        <label htmlFor={`${idPrefix}-sort`} className="block text-sm font-medium">
          {labels.sort}
        </label>
        <select
          id={`${idPrefix}-sort`}
          name="sort"
          defaultValue={sort}
          className="rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
        >
          {sorts.map(({ key, label }) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={`${ADMIN_BUTTON} py-2`}>
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
  text,
  id,
  back,
  children,
}: {
  text: string;
  id: string;
  back: string;
  /** Extra fields, e.g. where a category's posts go. */
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
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="back" value={back} />
        {children}
        <div className="flex gap-3">
          <button type="submit" className="rounded-md bg-red-700 px-3 py-1.5 text-white hover:bg-red-800">
            {t("list.delete")}
          </button>
          <Link to={back} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700">
            {t("list.cancel")}
          </Link>
        </div>
      </Form>
    </div>
  );
}

/** Reads `?q=` and `?page=` of an admin list, bounded. */
export function listQuery(request: Request): { q: string; page: number; url: URL } {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const pageParam = Number(url.searchParams.get("page") ?? "1");
  return { q, page: Number.isSafeInteger(pageParam) && pageParam > 0 ? pageParam : 1, url };
}

/** A `back` value from a form, accepted only when it is this list itself (with a query). */
export function safeBack(value: FormDataEntryValue | null, basePath: string): string {
  const text = typeof value === "string" ? value : "";
  const escaped = basePath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^${escaped}(\\?[^#\\\\]*)?$`).test(text) && !text.includes("confirmDelete") ? text : basePath;
}

/**
 * ↑ / ↓ for a row of a hand-ordered list (slides, links): each posts
 * `intent=move` with the row's new 0-based position; the keyboard's way to reorder.
 */
export function MoveButtons({
  id,
  position,
  total,
  back,
  upLabel,
  downLabel,
}: {
  id: string;
  position: number;
  total: number;
  back: string;
  upLabel: string;
  downLabel: string;
}) {
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
