import { routePolicy } from "../../lib/route-policy.ts";
import { buildRss } from "../../server/feeds/feeds.server.ts";
import type { Route } from "./+types/rss";
import { feedInput, xmlResponse } from "./feed.server.ts";

export const handle = routePolicy({ cache: "public" });

// GET /rss.xml, /en/rss.xml, /zh/rss.xml: RSS 2.0, the latest posts in one language.
export async function loader({ request, context }: Route.LoaderArgs) {
  return xmlResponse(request, buildRss(await feedInput(request, context)), "application/rss+xml");
}
