import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { contrastRatio, parseColour } from "./contrast.ts";
import { DARK_PAIRS, LIGHT_PAIRS } from "./design-colours.ts";

// The palette as the installed Tailwind defines it, so an upgrade that moves a colour is caught.
const themeCss = readFileSync(createRequire(import.meta.url).resolve("tailwindcss/theme.css"), "utf8");

function paletteValue(name: string): string {
  const m = new RegExp(`--color-${name}:\\s*([^;]+);`).exec(themeCss);
  if (!m?.[1]) throw new Error(`no colour ${name} in tailwindcss/theme.css`);
  return m[1];
}

describe("contrastRatio", () => {
  it("gives WCAG's known figures", () => {
    expect(contrastRatio("#000", "#fff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#fff", "#fff")).toBeCloseTo(1, 5);
    // #767676 is the lightest grey that passes AA on white.
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
  });

  it("reads OKLCH as sRGB", () => {
    // oklch(62.8% 0.2577 29.23) is #ff0000.
    const [r, g, b] = parseColour("oklch(62.8% 0.2577 29.23)");
    expect(r).toBeCloseTo(1, 2);
    expect(g).toBeCloseTo(0, 2);
    expect(b).toBeCloseTo(0, 2);
    expect(contrastRatio("oklch(100% 0 0)", "#000")).toBeCloseTo(21, 2);
  });

  it("rejects what it cannot read", () => {
    expect(() => parseColour("rgb(0 0 0)")).toThrow(/not a colour/);
  });
});

describe.each([
  ["light", LIGHT_PAIRS],
  ["dark", DARK_PAIRS],
])("the %s theme's text colours", (_theme, pairs) => {
  it.each(pairs.map((p) => [`${p.text} on ${p.background} (${p.use})`, p] as const))(
    "%s reaches 4.5:1",
    (_label, pair) => {
      const ratio = contrastRatio(paletteValue(pair.text), paletteValue(pair.background));
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    },
  );
});
