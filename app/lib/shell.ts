/**
 * Which frame a page wears. The public site's (header, main column, footer) unless a layout
 * route draws its own and says so in its `handle` (`{ ...routePolicy(…), shell: "admin" }`):
 * then the root renders only what every page shares (skip link, toasts, scripts).
 */
export type Shell = "site" | "admin";

export function shellOf(matches: ReadonlyArray<{ handle: unknown; loaderData: unknown }>): Shell {
  // A layout whose loader failed (a reader on /admin gets 403) has no data to draw its frame:
  // the error page wears the site's.
  const own = matches.find(
    (m) => typeof m.handle === "object" && m.handle !== null && "shell" in m.handle && m.loaderData !== undefined,
  );
  return own && (own.handle as { shell: unknown }).shell === "admin" ? "admin" : "site";
}
