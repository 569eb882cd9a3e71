import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { SHOWCASE_MARKDOWN } from "../../../scripts/demo/showcase.ts";
import { contrastRatio } from "../../lib/contrast.ts";
import { renderPost } from "./post-render.server.ts";

// Issue 49: every highlighted token of the demo style-guide post (every language it shows, in
// both of its versions) reaches WCAG AA, 4.5:1, on the code block's background in each theme:
// zinc-100 in the light theme, zinc-900 in the dark one (`.shiki` in app/app.css).
const themeCss = readFileSync(createRequire(import.meta.url).resolve("tailwindcss/theme.css"), "utf8");
const appCss = readFileSync(new URL("../../app.css", import.meta.url), "utf8");

function paletteValue(name: string): string {
  const m = new RegExp(`--color-${name}:\\s*([^;]+);`).exec(themeCss);
  if (!m?.[1]) throw new Error(`no colour ${name} in tailwindcss/theme.css`);
  return m[1];
}

/** The palette colour app.css gives a `.shiki` block's background in a theme. */
function codeBackground(selector: string): string {
  const block = new RegExp(`(?:^|\\n)${selector.replace(".", "\\.")} \\{([^}]*)\\}`).exec(appCss)?.[1] ?? "";
  const name = /background-color:\s*var\(--color-([a-z]+-\d+)\)/.exec(block)?.[1];
  if (!name) throw new Error(`no background for ${selector} in app.css`);
  return paletteValue(name);
}

describe("code colours", () => {
  it("reach 4.5:1 on the code background for every token of the style-guide post, in both themes", async () => {
    const backgrounds = { light: codeBackground(".shiki"), dark: codeBackground(".dark .shiki") };
    const colours = { light: new Set<string>(), dark: new Set<string>() };
    for (const locale of ["en", "zh"] as const) {
      const { html } = await renderPost(SHOWCASE_MARKDOWN[locale], locale);
      for (const [, theme, colour] of html.matchAll(/--shiki-(light|dark):(#[0-9a-fA-F]{3,8})/g)) {
        colours[theme as "light" | "dark"].add((colour as string).toLowerCase());
      }
    }
    // The post shows several languages: many colours in each theme.
    expect(colours.light.size).toBeGreaterThan(5);
    expect(colours.dark.size).toBeGreaterThan(5);
    const failing: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      for (const colour of colours[theme]) {
        const ratio = contrastRatio(colour.slice(0, 7), backgrounds[theme]);
        if (ratio < 4.5) failing.push(`${theme} ${colour}: ${ratio.toFixed(2)}`);
      }
    }
    expect(failing).toEqual([]);
  });
});
