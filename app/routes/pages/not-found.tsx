import { data } from "react-router";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { notFoundForReader } from "../../server/posts/not-found.server.ts";
import type { Route } from "./+types/not-found";

export const handle = routePolicy({ cache: "none", writes: "none", js: "lean" });

// Any path no other route matches: a 404 rendered by the root error boundary, which
// shows "Page not found: {fullPath}" inside the normal layout, with a search form and
// the latest posts in the reader's language.
export async function loader({ context }: Route.LoaderArgs) {
  return notFoundForReader(getApp(context).db, getRequest(context).locale);
}

export async function action() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
