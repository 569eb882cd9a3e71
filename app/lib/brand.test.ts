import { describe, expect, it } from "vitest";
import { checkAccent, DARK_PAGE, hexToOklch, LIGHT_PAGE, oklchToHex, paletteCss, SHADES } from "./brand.ts";
import { contrastRatio } from "./contrast.ts";

describe("the accent colour", () => {
  it("is refused when links in it would not reach 4.5:1 on the light page, naming both colours", () => {
    const check = checkAccent("#FFCC00");
    expect(check).toMatchObject({ ok: false, accent: "#ffcc00", page: LIGHT_PAGE });
    expect(check.ok ? 0 : check.ratio).toBeCloseTo(contrastRatio("#ffcc00", "#ffffff"), 5);
    expect(checkAccent("#777777").ok).toBe(false);
    expect(checkAccent("#767676").ok).toBe(true);
  });

  it("becomes step 700 of a scale in its hue whose text steps pass in both themes", () => {
    for (const accent of ["#be123c", "#047857", "#7c3aed", "#000000", "#1d4ed8", "#9a3412", "#0e7490"]) {
      const check = checkAccent(accent);
      if (!check.ok) throw new Error(`${accent} refused`);
      expect(check.palette[700]).toBe(accent);
      for (const shade of [600, 700, 800, 900, 950] as const) {
        expect(contrastRatio(check.palette[shade], "#ffffff"), `${accent} ${shade}`).toBeGreaterThanOrEqual(4.5);
      }
      for (const shade of [200, 300, 400] as const) {
        expect(contrastRatio(check.palette[shade], DARK_PAGE), `${accent} ${shade}`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(check.palette[shade], "#18181b"), `${accent} ${shade}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(check.darkLink).toBe(check.palette[400]);
      expect(check.darkRatio).toBeGreaterThanOrEqual(4.5);
      // Lighter to darker, as the blue scale is.
      const lightness = SHADES.map((s) => hexToOklch(check.palette[s]).l);
      for (let i = 1; i < lightness.length; i++)
        expect(lightness[i]).toBeLessThanOrEqual((lightness[i - 1] ?? 1) + 1e-9);
    }
  });

  it("keeps the hue: a red accent gives red links in the dark theme", () => {
    const check = checkAccent("#be123c");
    if (!check.ok) throw new Error("refused");
    const dark = hexToOklch(check.darkLink);
    expect(Math.abs(dark.h - hexToOklch("#be123c").h)).toBeLessThan(6);
  });

  it("round-trips between hex and OKLCH", () => {
    for (const hex of ["#be123c", "#047857", "#ffffff", "#000000", "#1d4ed8"]) {
      const { l, c, h } = hexToOklch(hex);
      expect(oklchToHex(l, c, h)).toBe(hex);
    }
  });

  it("is written as CSS for every step of the blue scale it replaces", () => {
    const check = checkAccent("#be123c");
    if (!check.ok) throw new Error("refused");
    const css = paletteCss(check.palette);
    expect(css.startsWith(":root{")).toBe(true);
    for (const shade of SHADES) expect(css).toContain(`--color-blue-${shade}:${check.palette[shade]}`);
    expect(css).not.toMatch(/[<>]/);
  });
});
