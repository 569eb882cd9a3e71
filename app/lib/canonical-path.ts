/**
 * One address per page (issue 49). Every page's address is written without a trailing slash
 * (as every link, canonical tag and sitemap entry writes it), and a list's first page is the
 * list itself: `/posts`, `/tags/css`, not `…/page/1`. `canonicalPath` says where another form
 * of a page's address should be sent; null when the path is already the page's one address.
 * Only the path is looked at: the query goes along as it is.
 */
export function canonicalPath(path: string): string | null {
  if (!path.startsWith("/") || path.startsWith("/api/")) return null;
  let canonical = path;
  if (canonical.length > 1 && (canonical.endsWith("/") || canonical.includes("//"))) {
    // Repeated slashes collapse too: `//host/` must never become a `//host` Location.
    canonical = canonical.replace(/\/{2,}/g, "/").replace(/\/+$/, "") || "/";
  }
  const firstPage = /^((?:\/(?:en|zh))?\/(?:posts|(?:categories|tags|authors)\/[^/]+))\/page\/0*1$/i.exec(canonical);
  if (firstPage?.[1]) canonical = firstPage[1];
  return canonical === path ? null : canonical;
}
