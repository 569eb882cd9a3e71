/**
 * Whether a request counts as a read: the one decision behind every counter a public page
 * has (the post view, ad impressions, Insights reads, searches and 404s), on a render and on
 * a render-cache hit alike (docs/decisions/024-lean-reading-pages.md, "Counting reads").
 */

/** The header the reader script's beacon carries: a speculatively loaded page was shown. */
export const READ_BEACON_HEADER = "x-inkwell-read";
/** The beacon's copy of the shown page's `document.referrer` (its own Referer is the page itself). */
export const READ_REFERRER_HEADER = "x-inkwell-referrer";
/** A forwarded referrer longer than this is dropped (a URL, not a payload). */
export const MAX_FORWARDED_REFERRER = 2_048;

/** A request that counts, and the referrer to count it with. */
export interface CountedRead {
  referer: string | null;
}

export interface ReadRequest {
  method: string;
  /** A request header by name (case-insensitive), as Express's `req.get` or Fetch's `headers.get`. */
  header: (name: string) => string | null | undefined;
  /** A React Router data request made to revalidate after a form, not a navigation. */
  revalidation?: boolean;
}

/**
 * A browser's speculative load (prefetch or prerender), made before anyone chose to read:
 * `Sec-Purpose: prefetch` (Chromium sends it for both, prerender as `prefetch;prerender`),
 * and the older `Purpose: prefetch` / `X-Moz: prefetch`.
 */
export function isSpeculative(header: ReadRequest["header"]): boolean {
  return ["sec-purpose", "purpose", "x-moz"].some((name) => /\bprefetch\b/i.test(header(name) ?? ""));
}

/**
 * The read a request counts, or null when it counts nothing. A GET counts (with its Referer)
 * unless it is speculative or a revalidation; a HEAD counts only as the reader script's beacon
 * (`X-Inkwell-Read: 1`, sent when a prefetched or prerendered page is shown), with the
 * referrer it forwards. Anything else counts nothing. Bots are left to the counters.
 */
export function countedRead({ method, header, revalidation = false }: ReadRequest): CountedRead | null {
  if (isSpeculative(header) || revalidation) return null;
  if (method === "GET") return { referer: header("referer") || null };
  if (method === "HEAD" && header(READ_BEACON_HEADER) === "1") {
    const forwarded = header(READ_REFERRER_HEADER) ?? "";
    return { referer: forwarded && forwarded.length <= MAX_FORWARDED_REFERRER ? forwarded : null };
  }
  return null;
}
