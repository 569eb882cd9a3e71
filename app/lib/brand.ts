import { contrastRatio } from "./contrast.ts";

// The site's accent colour (issue 48). The site is drawn with Tailwind's blue scale (links
// text-blue-700 / dark:text-blue-400, buttons bg-blue-700, focus rings blue-600); an owner's
// accent replaces that scale: a scale of the same lightness steps in the accent's hue, with the
// accent itself as step 700. Every step that carries text or a ring is checked against the
// page it sits on (WCAG's 4.5:1) and moved in lightness until it passes; the accent itself is
// refused when it does not reach 4.5:1 on the light page, since it is what links are.

/** The light page (body bg-white) and the dark one (dark:bg-zinc-950), and dark cards (zinc-900). */
export const LIGHT_PAGE = "#ffffff";
export const DARK_PAGE = "#09090b";
const DARK_CARD = "#18181b";
export const MIN_CONTRAST = 4.5;

export const SHADES = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950] as const;
export type Shade = (typeof SHADES)[number];

/** Tailwind 4's blue scale in OKLCH lightness (in %) and chroma (its hue is replaced by the accent's). */
const STEPS_PERCENT: Record<Shade, { l: number; c: number }> = {
  50: { l: 97.0, c: 0.014 },
  100: { l: 93.2, c: 0.032 },
  200: { l: 88.2, c: 0.059 },
  300: { l: 80.9, c: 0.105 },
  400: { l: 70.7, c: 0.165 },
  500: { l: 62.3, c: 0.214 },
  600: { l: 54.6, c: 0.245 },
  700: { l: 48.8, c: 0.243 },
  800: { l: 42.4, c: 0.199 },
  900: { l: 37.9, c: 0.146 },
  950: { l: 28.2, c: 0.091 },
};

const STEPS = Object.fromEntries(
  SHADES.map((shade) => [shade, { l: STEPS_PERCENT[shade].l / 100, c: STEPS_PERCENT[shade].c }]),
) as Record<Shade, { l: number; c: number }>;

/** Steps that white text or a ring sits on, or that are text on the light page: darkened until they pass. */
const ON_LIGHT: readonly Shade[] = [600, 700, 800, 900, 950];
/** Steps that are text on the dark page (dark:text-blue-300/400): lightened until they pass. */
const ON_DARK: readonly Shade[] = [200, 300, 400];

export const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** `#rrggbb` as OKLCH (lightness 0–1, chroma, hue in degrees). */
export function hexToOklch(hex: string): { l: number; c: number; h: number } {
  const n = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => toLinear(v / 255)) as [
    number,
    number,
    number,
  ];
  const l_ = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m_ = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s_ = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l_ + 0.793617785 * m_ - 0.0040720468 * s_;
  const A = 1.9779984951 * l_ - 2.428592205 * m_ + 0.4505937099 * s_;
  const B = 0.0259040371 * l_ + 0.7827717662 * m_ - 0.808675766 * s_;
  const h = (Math.atan2(B, A) * 180) / Math.PI;
  return { l: L, c: Math.hypot(A, B), h: h < 0 ? h + 360 : h };
}

/** OKLCH as linear sRGB, unclamped (a channel outside 0–1 is out of gamut). */
function oklchToLinear(l: number, c: number, h: number): [number, number, number] {
  const rad = (h * Math.PI) / 180;
  const a = c * Math.cos(rad);
  const b = c * Math.sin(rad);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
    -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
    -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_,
  ];
}

/** OKLCH as `#rrggbb`, chroma reduced until the colour is inside sRGB. */
export function oklchToHex(l: number, c: number, h: number): string {
  let chroma = c;
  let rgb = oklchToLinear(l, chroma, h);
  while (chroma > 0 && rgb.some((v) => v < -1e-4 || v > 1 + 1e-4)) {
    chroma = Math.max(0, chroma - 0.002);
    rgb = oklchToLinear(l, chroma, h);
  }
  return `#${rgb
    .map((v) =>
      Math.round(fromLinear(Math.min(1, Math.max(0, v))) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

export type BrandPalette = Record<Shade, string>;

export type AccentCheck =
  | { ok: true; accent: string; palette: BrandPalette; darkLink: string; darkRatio: number }
  | { ok: false; accent: string; page: string; ratio: number };

const minRatio = (colour: string, backgrounds: readonly string[]) =>
  Math.min(...backgrounds.map((bg) => contrastRatio(colour, bg)));

/**
 * The scale for `accent` (`#rrggbb`), or why it is refused: the accent is the light theme's
 * link and button colour, so it must reach 4.5:1 against the light page. The other steps are
 * adjusted where needed; `darkLink` is the dark theme's link colour and its ratio there.
 */
export function checkAccent(accent: string): AccentCheck {
  const colour = accent.toLowerCase();
  const ratio = contrastRatio(colour, LIGHT_PAGE);
  if (ratio < MIN_CONTRAST) return { ok: false, accent: colour, page: LIGHT_PAGE, ratio };
  const { l: accentL, c, h } = hexToOklch(colour);
  const scale = c / STEPS[700].c;
  const palette = {} as BrandPalette;
  for (const shade of SHADES) {
    if (shade === 700) {
      palette[shade] = colour;
      continue;
    }
    // The darker steps (hover) stay darker than an accent darker than Tailwind's 700.
    let l = shade > 700 ? Math.min(STEPS[shade].l, accentL * (STEPS[shade].l / STEPS[700].l)) : STEPS[shade].l;
    const chroma = STEPS[shade].c * scale;
    let hex = oklchToHex(l, chroma, h);
    if (ON_LIGHT.includes(shade)) {
      // A lighter step than the accent (600) goes no darker than the accent: at worst it is the accent.
      const floor = shade < 700 ? accentL : 0;
      while (l > floor && minRatio(hex, [LIGHT_PAGE]) < MIN_CONTRAST) {
        l = Math.max(floor, l - 0.01);
        hex = oklchToHex(l, chroma, h);
      }
      if (minRatio(hex, [LIGHT_PAGE]) < MIN_CONTRAST) hex = colour;
    }
    if (ON_DARK.includes(shade)) {
      while (l < 1 && minRatio(hex, [DARK_PAGE, DARK_CARD]) < MIN_CONTRAST) {
        l += 0.01;
        hex = oklchToHex(l, chroma, h);
      }
    }
    palette[shade] = hex;
  }
  return {
    ok: true,
    accent: colour,
    palette,
    darkLink: palette[400],
    darkRatio: contrastRatio(palette[400], DARK_PAGE),
  };
}

/**
 * The CSS that puts a palette in place of Tailwind's blue: the site's utilities read
 * `var(--color-blue-…)`, so every link, button and focus ring follows, in both themes.
 */
export function paletteCss(palette: BrandPalette): string {
  return `:root{${SHADES.map((s) => `--color-blue-${s}:${palette[s]}`).join(";")}}`;
}

/** The ratio as people write it: "3.2:1". */
export const formatRatio = (ratio: number) => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
