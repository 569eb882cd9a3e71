import { data } from "react-router";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pageShowsAnyPost } from "../../server/cache/page-tags.server.ts";
import { type SitemapPart, sitemapXml } from "../../server/feeds/sitemap.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/sitemap";
import { xmlResponse } from "./feed.server.ts";

/** `/sitemap.xml` and a large blog's `/sitemaps/*.xml` (sitemap-part.ts parses the name). */
export async function sitemapLoader(
  { request, context }: Pick<Route.LoaderArgs, "request" | "context">,
  part: SitemapPart | null,
): Promise<Response> {
  if (!part) throw data(null, { status: 404 });
  const { db, env } = getApp(context);
  // Every post's last change may be in it.
  pageShowsAnyPost(getRequest(context));
  const { postsPerPage } = await requestSettings(context);
  const xml = await sitemapXml(db, { part, publicUrl: env.publicUrl, postsPerPage });
  if (xml === null) throw data(null, { status: 404 });
  return xmlResponse(request, xml, "application/xml");
}
