import type { RouterContextProvider } from "react-router";
import { type AppContext, getApp } from "./context.server.ts";
import { getSiteSettings, type SiteSettings } from "./repos/site-settings.server.ts";

const cache = new WeakMap<AppContext, Promise<SiteSettings>>();

/** The site settings for this request, read once however many loaders ask. */
export function requestSettings(context: Readonly<RouterContextProvider>): Promise<SiteSettings> {
  const app = getApp(context);
  let pending = cache.get(app);
  if (!pending) {
    pending = getSiteSettings(app.db);
    cache.set(app, pending);
  }
  return pending;
}
