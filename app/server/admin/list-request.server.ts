import type { RouterContextProvider } from "react-router";
import type { Locale } from "../../lib/i18n/locale.ts";
import { requireAdmin, type SessionUser } from "../accounts/session.server.ts";
import { getApp, getRequest, type Services } from "../boot/context.server.ts";

// What every admin list's loader and action read from the request: the admin
// (checked), the search and page, the row awaiting delete, the way back.

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

/** An admin list loader's start: the admin (or the redirect/403), the services, `?q=`, `?page=` and the locale. */
export async function adminListRequest({
  request,
  context,
}: {
  request: Request;
  context: Readonly<RouterContextProvider>;
}): Promise<{ admin: SessionUser; app: Services; q: string; page: number; url: URL; locale: Locale }> {
  const admin = await requireAdmin(context, request);
  return { admin, app: getApp(context), locale: getRequest(context).locale, ...listQuery(request) };
}

/** The row a list's `?confirmDelete=id` names, for its confirmation panel; null when none or gone. */
export async function pendingDelete<T>(url: URL, load: (id: string) => Promise<T | undefined>): Promise<T | null> {
  const id = url.searchParams.get("confirmDelete");
  return id ? ((await load(id)) ?? null) : null;
}
