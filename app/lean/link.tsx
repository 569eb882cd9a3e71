import { type LinkProps, type NavLinkProps, Link as RouterLink, NavLink as RouterNavLink } from "react-router";
import { localizePath } from "../lib/i18n/localized-path.ts";
import { useLocalePrefix } from "../lib/i18n/use-locale-prefix.ts";
import { useLeanDocument } from "./lean-context.tsx";

/**
 * A path React Router's `<Link>` would write into `href` unchanged: absolute, no empty,
 * "." or ".." segment, no backslash, and a query or fragment that is not empty. (It
 * resolves the path against the route and drops a bare "?" or "#"; such paths take the
 * router's own way.)
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:[/?#]|$))[^/\\?#]+)*\/?(?:\?[^#]+)?(?:#.+)?$/;

export function isPlainPath(to: unknown): to is string {
  return typeof to === "string" && to.startsWith("/") && !to.startsWith("//") && PLAIN_PATH.test(to);
}

/** A link target in the page's language: a site path gets the page's /en or /zh (issue 49). */
function useLocalizedTo<T extends LinkProps["to"]>(to: T): T {
  const prefix = useLocalePrefix();
  return (typeof to === "string" ? localizePath(to, prefix) : to) as T;
}

/**
 * React Router's `<Link>`, written as the same `<a>` without the router in a lean document
 * (decision 024, "Memory and uncached speed"). A lean document never hydrates, so a link in
 * it only needs its markup; the router's link resolved its path against the matched routes,
 * set up its click handler and prefetching for every link of every page (~4 % of a
 * cache-off post page's CPU). The attributes and their order are the router's: its own props
 * first, then `href`, `target` and `data-discover`. Anything else (a relative path, a
 * prefetch, a mask, an app page) is the router's link.
 *
 * Every site path keeps the page's language (`localizePath`): on a /zh page, `to="/about"` is
 * `/zh/about`. This is the site's one link for its own pages, so a new link cannot forget it.
 */
export function Link(linkProps: LinkProps) {
  const lean = useLeanDocument();
  const props = { ...linkProps, to: useLocalizedTo(linkProps.to) };
  if (!lean || !isPlainPath(props.to) || (props.prefetch ?? "none") !== "none" || props.mask !== undefined) {
    return <RouterLink {...props} />;
  }
  const {
    onClick: _onClick,
    discover = "render",
    prefetch: _prefetch,
    relative: _relative,
    reloadDocument: _reloadDocument,
    replace: _replace,
    mask: _mask,
    state: _state,
    target,
    to,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    ...rest
  } = props;
  return <a {...rest} href={to} target={target} data-discover={discover === "render" ? "true" : undefined} />;
}

/** React Router's `<NavLink>` (the menus: it marks the current page), keeping the page's language like `Link`. */
export function NavLink(props: NavLinkProps) {
  return <RouterNavLink {...props} to={useLocalizedTo(props.to)} />;
}
