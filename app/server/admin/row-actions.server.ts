import { data, type RouterContextProvider, redirect } from "react-router";
import type { FlashKey } from "../../lib/flash.ts";
import { requireAdmin, type SessionUser } from "../accounts/session.server.ts";
import { getApp } from "../boot/context.server.ts";
import type { DB } from "../db/db.server.ts";
import { flashHeaders, flashOptions } from "../http/flash.server.ts";
import { readForm } from "../http/form.server.ts";
import { audit } from "./audit.server.ts";
import { safeBack } from "./list-request.server.ts";

/**
 * The one shape of an admin list's row buttons (move, delete, ban…): the form names
 * a row by `id` and an `intent`; the row is read (404 when it is gone), the change
 * and its audit entry are written in one transaction, and the admin goes back to
 * the list page they were on, with a flash when the intent has one.
 */

/** What an intent answers instead of writing: an error key for the page (and its status). */
export interface Refusal {
  refused: string;
  status?: number;
}

/** What a row action answers the page with when it does not redirect: an error or a notice key. */
export interface RowActionData {
  error?: string;
  notice?: string;
}

export const refuse = (key: string, status = 400): Refusal => ({ refused: key, status });

const isRefusal = (value: unknown): value is Refusal =>
  typeof value === "object" && value !== null && "refused" in value;

export interface RowIntent<T> {
  /**
   * Writes the change in `trx`. It returns a refusal before writing anything, or
   * details to add to the audit entry (which always carries the row's title).
   */
  apply: (
    trx: DB,
    row: T,
    form: FormData,
    admin: SessionUser,
  ) => Promise<Refusal | Record<string, unknown> | undefined>;
  /** The flash shown on the list after the redirect (e.g. "flash.deleted"). */
  flash?: FlashKey;
  /** Runs after the transaction committed (e.g. signing a banned user out). */
  after?: (row: T) => Promise<void>;
}

export interface RowActions<T> {
  /** The audit entity type ("link", "user"…). */
  type: string;
  /** The list's path: `back` must be this path (with a query) or the admin lands here. */
  listPath: string;
  load: (db: DB, id: string) => Promise<T | undefined>;
  /** The row's name in the audit log. */
  title: (row: T) => string;
  intents: Record<string, RowIntent<T>>;
}

interface ActionArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** An admin list route's `action`, from its intents. */
export function rowActions<T extends { id: string }>(spec: RowActions<T>) {
  return async (args: ActionArgs) => {
    const admin = await requireAdmin(args.context, args.request);
    return runRowAction(args, spec, await readForm(args.request), admin);
  };
}

/** The same, for an action that read the form (and checked the admin) itself, to answer other intents first. */
export async function runRowAction<T extends { id: string }>(
  { context }: ActionArgs,
  spec: RowActions<T>,
  form: FormData,
  admin: SessionUser,
) {
  const app = getApp(context);
  const id = String(form.get("id") ?? "");
  const row = id ? await spec.load(app.db, id) : undefined;
  if (!row) return data<RowActionData>({ error: "admin:errors.notFound" }, { status: 404 });
  const name = String(form.get("intent") ?? "");
  const intent = Object.hasOwn(spec.intents, name) ? spec.intents[name] : undefined;
  if (!intent) return data<RowActionData>({ error: "admin:errors.notFound" }, { status: 400 });

  const outcome = await app.db.transaction().execute(async (trx) => {
    const applied = await intent.apply(trx, row, form, admin);
    if (isRefusal(applied)) return applied;
    await audit(
      trx,
      admin,
      `${spec.type}.${name}`,
      { type: spec.type, id: row.id },
      { title: spec.title(row), ...applied },
    );
    return null;
  });
  if (outcome) return data<RowActionData>({ error: outcome.refused }, { status: outcome.status ?? 400 });
  await intent.after?.(row);
  const back = safeBack(form.get("back"), spec.listPath);
  return intent.flash
    ? redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", intent.flash) })
    : redirect(back);
}

/** `intent=move` of a hand-ordered list: `position` is the row's new 0-based place. */
export function moveIntent<T extends { id: string }>(
  move: (trx: DB, id: string, position: number) => Promise<unknown>,
): RowIntent<T> {
  return {
    apply: async (trx, row, form) => {
      const position = Number(form.get("position"));
      if (!Number.isSafeInteger(position) || position < 0) return refuse("admin:errors.orderInvalid");
      await move(trx, row.id, position);
      return { position };
    },
  };
}

/** `intent=delete`: removes the row, then "Deleted." on the list. */
export function deleteIntent<T extends { id: string }>(
  remove: (trx: DB, id: string) => Promise<unknown>,
): RowIntent<T> {
  return {
    apply: async (trx, row) => {
      await remove(trx, row.id);
      return undefined;
    },
    flash: "flash.deleted",
  };
}
