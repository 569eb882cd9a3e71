import type { RouterContextProvider } from "react-router";
import { getApp, getRequest, type RequestState } from "./context.server.ts";
import { getSiteSettings, type SiteSettings } from "./repos/site-settings.server.ts";

const cache = new WeakMap<RequestState, Promise<SiteSettings>>();

/** The site settings for this request, read once however many loaders ask. */
export function requestSettings(context: Readonly<RouterContextProvider>): Promise<SiteSettings> {
  const key = getRequest(context);
  let pending = cache.get(key);
  if (!pending) {
    pending = getSiteSettings(getApp(context).db);
    cache.set(key, pending);
  }
  return pending;
}
