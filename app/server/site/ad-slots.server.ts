import type { RouterContextProvider } from "react-router";
import { getApp, getRequest } from "../boot/context.server.ts";
import { changesAt } from "../cache/render-cache.server.ts";
import type { AdPlacement } from "../db/schema.server.ts";
import { type PublicAd, pickAdInWindow } from "./ads.server.ts";

/**
 * The ad to show in `placement` on this page, picked by weight on the server, in the
 * request's language (or the other one when the ad has no version in it; the render
 * cache keys pages by language), with one impression counted when the request is a read
 * (http/read-count.server.ts: not a prefetch, not a plain HEAD; bots never count). Null when
 * the placement has no active ad. A failure never breaks the page.
 */
export async function adFor(
  context: Readonly<RouterContextProvider>,
  request: Request,
  placement: AdPlacement,
): Promise<PublicAd | null> {
  const app = getApp(context);
  const { effects, log, locale, read } = getRequest(context);
  try {
    const { ad, nextChange } = await pickAdInWindow(app.db, placement, { locale });
    // An ad whose window opens or closes changes this page by itself.
    changesAt(effects, nextChange);
    if (ad) {
      // Kept for a cached copy's later reads even when this request counts nothing.
      effects.ads.push(ad.id);
      if (read) app.adImpressions.record(ad.id, request.headers.get("user-agent"));
    }
    return ad;
  } catch (error) {
    log.warn({ err: error, placement }, "could not pick an ad");
    return null;
  }
}
