import { isRecordId } from "../../lib/ids.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { clickThrough } from "../../server/site/ads.server.ts";
import type { Route } from "./+types/click";

export const handle = routePolicy({ cache: "none" });

// GET /ads/{id}/click: counts a click and redirects (302) to the ad's stored URL.
// Only an existing, enabled ad redirects, and only to what the admin stored:
// nothing from the request ever becomes the Location (no open redirect).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = params.id ?? "";
  const headers = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };
  const target = isRecordId(id) ? await clickThrough(getApp(context).db, id, request.headers.get("user-agent")) : null;
  if (!target) {
    return new Response("Not found", {
      status: 404,
      headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(null, { status: 302, headers: { ...headers, Location: target } });
}
