import { data, redirect } from "react-router";
import { isLocale, type Locale, localeCookieHeader, localePrefix, withoutLocalePrefix } from "../../lib/i18n/locale.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { safeRedirectPath } from "../../server/accounts/session.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import type { Route } from "./+types/locale";

export const handle = routePolicy({ cache: "none", writes: "none" });

/** The same page in the other language: swap an /en or /zh prefix, keep anything else. */
export function pathInLocale(path: string, locale: Locale): string {
  if (!localePrefix(path)) return path;
  const rest = withoutLocalePrefix(path);
  return rest === "/" ? `/${locale}` : `/${locale}${rest}`;
}

// POST /locale: remembers the reader's language (cookie, 365 days) and returns to
// the page they were on, in that language. Works without JavaScript.
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const locale = form.get("locale");
  if (!isLocale(locale)) return data({ error: "unknown locale" }, { status: 400 });
  const back = pathInLocale(safeRedirectPath(String(form.get("redirectTo") ?? "/")), locale);
  throw redirect(back, { headers: { "Set-Cookie": localeCookie(locale, request) } });
}

/** The cookie that remembers a reader's language (365 days). */
export function localeCookie(locale: Locale, request: Request): string {
  return localeCookieHeader(locale, new URL(request.url).protocol === "https:");
}

export async function loader() {
  throw redirect("/");
}
