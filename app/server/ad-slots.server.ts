import type { RouterContextProvider } from "react-router";
import { getApp } from "./context.server.ts";
import type { AdPlacement } from "./db/schema.server.ts";
import { type PublicAd, pickAd } from "./repos/ads.server.ts";

/**
 * The ad to show in `placement` on this page, picked by weight on the server,
 * with one impression counted (GET page loads only; bots never count). Null when
 * the placement has no active ad. A failure never breaks the page.
 */
export async function adFor(
  context: Readonly<RouterContextProvider>,
  request: Request,
  placement: AdPlacement,
): Promise<PublicAd | null> {
  const app = getApp(context);
  try {
    const ad = await pickAd(app.db, placement);
    if (ad && request.method === "GET") {
      app.adImpressions.record(ad.id, request.headers.get("user-agent"));
      app.effects.ads.push(ad.id);
    }
    return ad;
  } catch (error) {
    app.log.warn({ err: error, placement }, "could not pick an ad");
    return null;
  }
}
