import type { RouterContextProvider } from "react-router";
import { getApp, getRequest, type RequestState } from "../boot/context.server.ts";
import { getSharedSiteSettings, type SiteSettings } from "./site-settings.server.ts";

const cache = new WeakMap<RequestState, Promise<Readonly<SiteSettings>>>();

/**
 * The site settings for this request, read once however many loaders ask, and parsed
 * only when the stored rows changed (`getSharedSiteSettings`). Shared and frozen.
 */
export function requestSettings(context: Readonly<RouterContextProvider>): Promise<Readonly<SiteSettings>> {
  const key = getRequest(context);
  let pending = cache.get(key);
  if (!pending) {
    pending = getSharedSiteSettings(getApp(context).db);
    cache.set(key, pending);
  }
  return pending;
}
