import { routePolicy } from "../../lib/route-policy.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { robotsTxt } from "../../server/feeds/feeds.server.ts";
import type { Route } from "./+types/robots";

export const handle = routePolicy({ cache: "public" });

// GET /robots.txt: crawl everything public, point at the sitemap.
export function loader({ context }: Route.LoaderArgs) {
  return new Response(robotsTxt(getApp(context).env.publicUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
