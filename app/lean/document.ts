import { mergePolicies, policyOf } from "../lib/route-policy.ts";

/**
 * The one switch between a lean document and the app (docs/decisions/024-lean-reading-pages.md):
 * a page is sent without React when its route says `js: "lean"` and nobody is signed in. Only the
 * server decides: a lean document never hydrates, so the browser only ever renders app pages (a
 * client-side navigation from an app page to a reading page stays in the app).
 *
 * The render cache agrees by construction: it keeps and serves only pages for requests without
 * a session cookie (isAnonymous), which are rendered with no user, hence lean where the route is.
 */
export function isLeanDocument(routeHandles: readonly unknown[], signedIn: boolean, onServer: boolean): boolean {
  if (!onServer || signedIn) return false;
  return mergePolicies(routeHandles.map(policyOf)).js === "lean";
}

/** Paths a speculative load must never touch: they count, change or sign something. */
const NEVER_SPECULATE = [
  "/ads/*",
  "/logout",
  "/locale",
  "/login/provider/*",
  "/api/*",
  "/unsubscribe*",
  "/*/unsubscribe*",
];

/**
 * Speculation Rules for lean documents: same-origin links are prefetched when the reader
 * hovers or presses them ("moderate"), and post pages prerendered. The render cache
 * makes the extra requests cheap.
 */
export const SPECULATION_RULES = JSON.stringify({
  prefetch: [
    {
      where: {
        and: [
          { href_matches: "/*" },
          { not: { href_matches: NEVER_SPECULATE } },
          { not: { selector_matches: "[rel~=nofollow], [download], [target=_blank]" } },
        ],
      },
      eagerness: "moderate",
    },
  ],
  prerender: [
    {
      where: { href_matches: ["/posts/detail/*", "/en/posts/detail/*", "/zh/posts/detail/*"] },
      eagerness: "moderate",
    },
  ],
});
