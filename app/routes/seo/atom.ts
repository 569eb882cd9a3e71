import { routePolicy } from "../../lib/route-policy.ts";
import { buildAtom } from "../../server/feeds/feeds.server.ts";
import type { Route } from "./+types/atom";
import { feedInput, xmlResponse } from "./feed.server.ts";

export const handle = routePolicy({ cache: "public" });

// GET /atom.xml, /en/atom.xml, /zh/atom.xml: Atom 1.0, the latest posts in one language.
export async function loader({ request, context }: Route.LoaderArgs) {
  return xmlResponse(request, buildAtom(await feedInput(request, context)), "application/atom+xml");
}
