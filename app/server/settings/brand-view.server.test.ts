import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../site/site-settings.server.ts";
import { brandView } from "./brand-view.server.ts";

const appearance = DEFAULT_SETTINGS.appearance;
const brand = DEFAULT_SETTINGS.brand;

describe("the brand on every page", () => {
  it("adds nothing for a site that kept the defaults", () => {
    expect(brandView(brand, appearance)).toEqual({ css: null, logo: null, icons: null });
  });

  it("puts the accent's scale in place of the blue one", () => {
    const view = brandView({ ...brand, accent: "#be123c" }, appearance);
    expect(view.css).toContain("--color-blue-700:#be123c");
    expect(view.css).toContain("--color-blue-400:");
  });

  it("sets the post text's typeface and size", () => {
    const css = brandView(brand, { ...appearance, typeface: "serif", largeText: true }).css ?? "";
    expect(css).toMatch(/\.markdown\{font-family:ui-serif/);
    expect(css).toContain('.markdown:lang(zh){font-family:"Songti SC"');
    expect(css).toContain(".markdown{font-size:1.125rem}");
  });

  it("names the logo with its size, and the icon's favicon and touch icon", () => {
    const view = brandView(
      {
        ...brand,
        logo: "/media/abcdefghjkmnpqrstvwx/image.png",
        logoWidth: 300,
        logoHeight: 100,
        icon: "/media/0123456789abcdefghjk/image.png",
      },
      appearance,
    );
    expect(view.logo).toEqual({ src: "/media/abcdefghjkmnpqrstvwx/image.png", width: 300, height: 100 });
    expect(view.icons).toEqual({
      favicon: "/media/0123456789abcdefghjk/i32.png",
      apple: "/media/0123456789abcdefghjk/i180.png",
    });
  });
});
