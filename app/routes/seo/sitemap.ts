import { routePolicy } from "../../lib/route-policy.ts";
import type { Route } from "./+types/sitemap";
import { sitemapLoader } from "./sitemap-response.server.ts";

export const handle = routePolicy({ cache: "public" });

// GET /sitemap.xml: every public page with its language alternates, or, for a blog with
// more than SITEMAP_POSTS_PER_FILE posts, the index of its files.
export function loader(args: Route.LoaderArgs) {
  return sitemapLoader(args, { kind: "root" });
}
