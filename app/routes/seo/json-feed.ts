import { routePolicy } from "../../lib/route-policy.ts";
import { buildJsonFeed, JSON_FEED_TYPE } from "../../server/feeds/json-feed.server.ts";
import type { Route } from "./+types/json-feed";
import { feedInput, xmlResponse } from "./feed.server.ts";

export const handle = routePolicy({ cache: "public" });

// GET /feed.json, /en/feed.json, /zh/feed.json: JSON Feed 1.1, the posts of the RSS and
// Atom feeds of that language (same query, same caching and ETag).
export async function loader({ request, context }: Route.LoaderArgs) {
  return xmlResponse(request, buildJsonFeed(await feedInput(request, context)), JSON_FEED_TYPE);
}
