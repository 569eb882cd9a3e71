import { data } from "react-router";

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
