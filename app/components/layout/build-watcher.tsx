import { useEffect, useRef } from "react";
import { useNavigation } from "react-router";
import { claimReload } from "../../lib/reload-guard.ts";

/** First check about a second after start (spec 9), then every five minutes. */
export const FIRST_CHECK_MS = 1_000;
export const CHECK_EVERY_MS = 5 * 60_000;

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

/** True when an error (or rejection reason) says a code chunk failed to load. */
export function isChunkLoadError(reason: unknown): boolean {
  if (typeof reason === "string") return CHUNK_ERROR.test(reason);
  if (reason instanceof Error) return CHUNK_ERROR.test(reason.message);
  return false;
}

type ManifestWindow = Window & { __reactRouterManifest?: { version?: string } };

/** Reloads the current page unless it already reloaded by itself within the guard window. */
function guardedReload(): void {
  if (claimReload(window.location.pathname)) window.location.reload();
}

/** Whether a click on an element should become a full page load of its link. */
function linkToFollow(event: MouseEvent): URL | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const target = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(target instanceof HTMLAnchorElement)) return null;
  if (target.hasAttribute("download") || (target.target && target.target !== "_self")) return null;
  const url = new URL(target.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
  if (samePage && url.hash) return null;
  return url;
}

/**
 * Browser only. Polls /builds/latest.json; once a newer build than the running one
 * is out, the next navigation is a full page load, which fetches the new assets.
 * A code chunk that fails to load (old assets removed by a deploy) reloads the page,
 * at most once per path within 10 s.
 */
export function BuildWatcher({ buildId }: { buildId: string | null }) {
  const stale = useRef(false);
  const navigation = useNavigation();

  useEffect(() => {
    const running = (window as ManifestWindow).__reactRouterManifest?.version ?? buildId;
    if (!running) return;
    let stopped = false;
    const check = async () => {
      if (stale.current || stopped) return;
      try {
        const response = await fetch("/builds/latest.json", { cache: "no-store", credentials: "omit" });
        if (!response.ok) return;
        const body: unknown = await response.json();
        const latest = typeof body === "object" && body && "buildId" in body ? body.buildId : null;
        if (typeof latest === "string" && latest !== running) {
          stale.current = true;
          document.documentElement.dataset.staleBuild = "true";
        }
      } catch {
        // Offline or a deploy in progress: the next check tries again.
      }
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void check();
    };
    const onClick = (event: MouseEvent) => {
      if (!stale.current) return;
      const url = linkToFollow(event);
      if (!url) return;
      event.preventDefault();
      window.location.assign(url.href);
    };
    const first = window.setTimeout(() => void check(), FIRST_CHECK_MS);
    const every = window.setInterval(() => void check(), CHECK_EVERY_MS);
    document.addEventListener("visibilitychange", onVisible);
    // Capture on window runs before React Router's link handler on the document.
    window.addEventListener("click", onClick, true);
    return () => {
      stopped = true;
      window.clearTimeout(first);
      window.clearInterval(every);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("click", onClick, true);
    };
  }, [buildId]);

  // Navigations that do not start with a link click (e.g. navigate()): load the page instead.
  useEffect(() => {
    if (!stale.current || navigation.state !== "loading" || navigation.formMethod) return;
    const { pathname, search, hash } = navigation.location;
    window.location.assign(`${pathname}${search}${hash}`);
  }, [navigation]);

  useEffect(() => {
    const onError = (event: ErrorEvent) => {
      if (isChunkLoadError(event.error ?? event.message)) guardedReload();
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      if (!isChunkLoadError(event.reason)) return;
      event.preventDefault();
      guardedReload();
    };
    // Vite's event for a failed preload of a chunk's dependencies.
    const onPreloadError = (event: Event) => {
      event.preventDefault();
      guardedReload();
    };
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    window.addEventListener("vite:preloadError", onPreloadError);
    return () => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
      window.removeEventListener("vite:preloadError", onPreloadError);
    };
  }, []);

  return null;
}
