import { type LinkProps, Link as RouterLink } from "react-router";
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

/**
 * React Router's `<Link>`, written as the same `<a>` without the router in a lean document
 * (decision 024, "Memory and uncached speed"). A lean document never hydrates, so a link in
 * it only needs its markup; the router's link resolved its path against the matched routes,
 * set up its click handler and prefetching for every link of every page (~4 % of a
 * cache-off post page's CPU). The attributes and their order are the router's: its own props
 * first, then `href`, `target` and `data-discover`. Anything else (a relative path, a
 * prefetch, a mask, an app page) is the router's link.
 */
export function Link(props: LinkProps) {
  const lean = useLeanDocument();
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
