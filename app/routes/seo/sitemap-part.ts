import { routePolicy } from "../../lib/route-policy.ts";
import { parseSitemapFile } from "../../server/feeds/sitemap.server.ts";
import type { Route } from "./+types/sitemap-part";
import { sitemapLoader } from "./sitemap-response.server.ts";

export const handle = routePolicy({ cache: "public" });

// GET /sitemaps/pages.xml and /sitemaps/posts-{n}.xml: a large blog's sitemap files
// (404 on a blog small enough for one /sitemap.xml, and past the last file).
export function loader(args: Route.LoaderArgs) {
  return sitemapLoader(args, parseSitemapFile(args.params.file));
}
