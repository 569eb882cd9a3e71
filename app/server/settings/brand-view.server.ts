import { checkAccent, paletteCss } from "../../lib/brand.ts";
import type { SiteSettings } from "../site/site-settings.server.ts";
import { iconUrl } from "./icons.server.ts";

/** What every page needs of the brand: the accent's and the reading text's CSS, the logo, the icons. */
export interface BrandView {
  /** `:root{--color-blue-…}` replacing the blue scale, and the post body's type; null: none. */
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

/** The post body in a serif: the Latin faces first, and for Chinese the Song faces first. */
const SERIF =
  '.markdown{font-family:ui-serif,Georgia,Cambria,"Times New Roman","Noto Serif","Songti SC","Noto Serif CJK SC","Source Han Serif SC",serif}' +
  '.markdown:lang(zh){font-family:"Songti SC","Noto Serif CJK SC","Source Han Serif SC",STSong,"SimSun",ui-serif,Georgia,serif}';
/** The larger reading size: 18 px instead of 16. */
const LARGE = ".markdown{font-size:1.125rem}";

export function brandView(brand: SiteSettings["brand"], appearance: SiteSettings["appearance"]): BrandView {
  const css = [
    accentCss(brand.accent),
    appearance.typeface === "serif" ? SERIF : null,
    appearance.largeText ? LARGE : null,
  ].filter((part): part is string => part !== null);
  return {
    css: css.length > 0 ? css.join("") : null,
    logo:
      brand.logo && brand.logoWidth > 0 && brand.logoHeight > 0
        ? { src: brand.logo, width: brand.logoWidth, height: brand.logoHeight }
        : null,
    icons: brand.icon ? { favicon: iconUrl(brand.icon, "i32.png"), apple: iconUrl(brand.icon, "i180.png") } : null,
  };
}
