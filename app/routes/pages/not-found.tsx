import { data } from "react-router";
import { routePolicy } from "../../lib/route-policy.ts";

export const handle = routePolicy({ cache: "none", writes: "none" });

// Any path no other route matches: a 404 rendered by the root error boundary,
// which shows "Page not found: {fullPath}" inside the normal layout.
export async function loader() {
  throw data(null, { status: 404 });
}

export async function action() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
