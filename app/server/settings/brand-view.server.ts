import { checkAccent, paletteCss } from "../../lib/brand.ts";
import type { SiteSettings } from "../repos/site-settings.server.ts";
import { iconUrl } from "./icons.server.ts";

/** What every page needs of the brand: the accent's CSS, the logo, the icon's sizes. */
export interface BrandView {
  /** `:root{--color-blue-…}` replacing the blue scale; null keeps Tailwind's blue. */
  css: string | null;
  /** The header's logo; null: the Inkwell mark. */
  logo: { src: string; width: number; height: number } | null;
  /** The favicon and Apple touch icon made from the site icon; null: /favicon.svg. */
  icons: { favicon: string; apple: string } | null;
}

/** The palette's CSS per accent: worked out once per process and colour. */
const cssByAccent = new Map<string, string | null>();

function accentCss(accent: string): string | null {
  if (!accent) return null;
  let css = cssByAccent.get(accent);
  if (css === undefined) {
    const check = checkAccent(accent);
    // A stored accent always passed the form; one that fails now (a rule changed) is ignored.
    css = check.ok ? paletteCss(check.palette) : null;
    if (cssByAccent.size > 100) cssByAccent.clear();
    cssByAccent.set(accent, css);
  }
  return css;
}

export function brandView(brand: SiteSettings["brand"]): BrandView {
  return {
    css: accentCss(brand.accent),
    logo:
      brand.logo && brand.logoWidth > 0 && brand.logoHeight > 0
        ? { src: brand.logo, width: brand.logoWidth, height: brand.logoHeight }
        : null,
    icons: brand.icon ? { favicon: iconUrl(brand.icon, "i32.png"), apple: iconUrl(brand.icon, "i180.png") } : null,
  };
}
