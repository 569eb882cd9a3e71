import { redirect } from "react-router";
import { localeFromPath, withoutLocalePrefix } from "../../lib/i18n/locale.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { localeCookie } from "../pages/locale.tsx";
import type { Route } from "./+types/prefixed";

export const handle = routePolicy({ cache: "none", writes: "none" });

// GET /en/admin… and /zh/admin…: the admin lives at /admin (its links have no prefix), so a
// prefixed address goes there, its language remembered as the reader's choice, which the
// admin then speaks (docs/decisions/025-design-pass.md). The admin layout checks who may enter.
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname);
  const target = `${withoutLocalePrefix(url.pathname)}${url.search}`;
  if (!locale) throw redirect(target);
  throw redirect(target, { headers: { "Set-Cookie": localeCookie(locale, request) } });
}
