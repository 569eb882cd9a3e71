import { routePolicy } from "../../lib/route-policy.ts";
import { getRequest } from "../../server/boot/context.server.ts";
import { iconUrl } from "../../server/settings/icons.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/manifest";

export const handle = routePolicy({ cache: "public" });

/** The link colour of a site without an accent of its own (Tailwind's blue-700). */
const DEFAULT_THEME_COLOUR = "#1d4ed8";

// GET /manifest.webmanifest: the site as a web app (name, colours, home-screen icons). The
// icons are the sizes made from the brand's site icon (settings/icons.server.ts), or the
// Inkwell mark, which scales.
export async function loader({ context }: Route.LoaderArgs) {
  const settings = await requestSettings(context);
  const locale = getRequest(context).locale;
  const { brand } = settings;
  const icons = brand.icon
    ? [
        { src: iconUrl(brand.icon, "i192.png"), sizes: "192x192", type: "image/png" },
        { src: iconUrl(brand.icon, "i512.png"), sizes: "512x512", type: "image/png" },
      ]
    : [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml" }];
  const manifest = {
    name: settings.siteName[locale],
    short_name: settings.siteName[locale].slice(0, 12),
    description: settings.siteDescription[locale],
    lang: locale === "zh" ? "zh-CN" : "en-US",
    start_url: `/${locale}`,
    display: "browser",
    background_color: "#ffffff",
    theme_color: brand.accent || DEFAULT_THEME_COLOUR,
    icons,
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
