/**
 * WCAG 2 contrast between two colours given as Tailwind 4 writes its palette: `#rgb`,
 * `#rrggbb` or `oklch(L% C H)`. OKLCH goes to linear sRGB through OKLab (Björn
 * Ottosson's published matrices), clamped to the sRGB gamut as a browser does for
 * these in-gamut palette values; WCAG's relative luminance is taken from linear values.
 */

export type Linear = readonly [number, number, number];

const clamp = (v: number) => Math.min(1, Math.max(0, v));

function srgbToLinear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function fromHex(hex: string): Linear {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a colour: ${hex}`);
  const n = Number.parseInt(full, 16);
  return [srgbToLinear((n >> 16) & 255), srgbToLinear((n >> 8) & 255), srgbToLinear(n & 255)];
}

function fromOklch(l: number, c: number, hueDegrees: number): Linear {
  const h = (hueDegrees * Math.PI) / 180;
  const a = c * Math.cos(h);
  const b = c * Math.sin(h);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    clamp(4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_),
    clamp(-1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_),
    clamp(-0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_),
  ];
}

/** Parses `#fff`, `#ffffff` or `oklch(54.6% 0.245 262.881)` into linear sRGB. */
export function parseColour(value: string): Linear {
  const text = value.trim().toLowerCase();
  if (text.startsWith("#")) return fromHex(text);
  // A hue of `none` (Tailwind's greys: `oklch(98.5% 0 none)`) counts as 0, as CSS computes it.
  const m = /^oklch\(\s*([\d.]+)(%?)\s+([\d.]+)\s+([\d.]+|none)\s*\)$/.exec(text);
  if (!m) throw new Error(`not a colour: ${value}`);
  const lightness = Number(m[1]) / (m[2] === "%" ? 100 : 1);
  return fromOklch(lightness, Number(m[3]), m[4] === "none" ? 0 : Number(m[4]));
}

export function relativeLuminance([r, g, b]: Linear): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(parseColour(a));
  const lb = relativeLuminance(parseColour(b));
  const [hi, lo] = la > lb ? [la, lb] : [lb, la];
  return (hi + 0.05) / (lo + 0.05);
}
