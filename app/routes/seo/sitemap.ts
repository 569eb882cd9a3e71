import { routePolicy } from "../../lib/route-policy.ts";
import { pageShowsAnyPost } from "../../server/cache/page-tags.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { buildSitemap } from "../../server/feeds.server.ts";
import { sitemapData } from "../../server/repos/discovery.server.ts";
import { requestSettings } from "../../server/request-settings.server.ts";
import type { Route } from "./+types/sitemap";
import { xmlResponse } from "./feed.server.ts";

export const handle = routePolicy({ cache: "public" });

// GET /sitemap.xml: every public page with its language alternates.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = getApp(context);
  // Every post's last change is in it.
  pageShowsAnyPost(getRequest(context));
  const [data, settings] = await Promise.all([sitemapData(db), requestSettings(context)]);
  const listPageCount = Math.max(1, Math.ceil(data.posts.length / settings.postsPerPage));
  return xmlResponse(request, buildSitemap({ ...data, publicUrl: env.publicUrl, listPageCount }), "application/xml");
}
