import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { glyphsFor } from "./fonts.server.ts";
import { breakUnits, layoutTitle, TITLE_SIZES } from "./layout.server.ts";
import { CARD_HEIGHT, CARD_WIDTH, renderCard } from "./render.server.ts";

const LONG_EN =
  "How we moved a twelve-year-old WordPress blog to a new home without losing a single comment, redirect, subscriber or image along the way, and what we would do differently the next time we try something like it";
const LONG_ZH =
  "用 React Router 写一个双语博客：从「草稿」到发布的完整流程，以及我们一路上踩过的坑、学到的经验和下一次想要换一种做法的地方，还有更多更多的细节都写在这里";

async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data } = await sharp(image)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [data[0] ?? 0, data[1] ?? 0, data[2] ?? 0];
}

const near = (a: readonly number[], b: readonly number[]) => a.every((v, i) => Math.abs(v - (b[i] ?? 0)) <= 12);

describe("where a card's title may break", () => {
  it("keeps Chinese words whole and punctuation with its neighbour", () => {
    const units = breakUnits("写一个双语博客：从「草稿」到发布", "zh");
    expect(units).toContain("博客：");
    expect(units).toContain("「草稿」");
    expect(units.join("")).toBe("写一个双语博客：从「草稿」到发布");
  });

  it("breaks English only at spaces", () => {
    expect(breakUnits("Don't stop: well-known tricks", "en")).toEqual(["Don't ", "stop: ", "well-known ", "tricks"]);
  });

  it("lays a short title out large, on one line", async () => {
    const layout = layoutTitle("Hello", "en", await glyphsFor("Hello", 700), 1000);
    expect(layout).toMatchObject({ fontSize: TITLE_SIZES[0]?.size, truncated: false });
    expect(layout.lines.map((l) => l.text)).toEqual(["Hello"]);
  });

  it("shrinks a long title, then cuts it with an ellipsis, within the width", async () => {
    for (const [title, locale] of [
      [LONG_EN, "en"],
      [LONG_ZH, "zh"],
    ] as const) {
      const layout = layoutTitle(title, locale, await glyphsFor(title, 700), 600);
      const smallest = TITLE_SIZES[TITLE_SIZES.length - 1];
      expect(layout.fontSize).toBe(smallest?.size);
      expect(layout.truncated).toBe(true);
      expect(layout.lines).toHaveLength(smallest?.maxLines ?? 0);
      expect(layout.lines.at(-1)?.text.endsWith("…")).toBe(true);
      for (const line of layout.lines) {
        expect(line.width).toBeLessThanOrEqual(600);
        // No line starts with closing punctuation.
        expect(line.text).not.toMatch(/^[，。：、」』）,.:;]/u);
      }
    }
  });
});

describe("drawing a social card", () => {
  const base = { siteName: "Inkwell", accent: "#be123c", cover: null, logo: null } as const;

  it("makes a 1200×630 JPEG in each language, different for each", async () => {
    const en = await renderCard({ ...base, title: "Moving house, slowly", locale: "en" });
    const zh = await renderCard({ ...base, title: "慢慢搬家", locale: "zh", siteName: "墨水博客" });
    for (const card of [en, zh]) {
      expect(card).toMatchObject({ contentType: "image/jpeg", width: CARD_WIDTH, height: CARD_HEIGHT });
      const meta = await sharp(card.data).metadata();
      expect(meta).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    }
    expect(en.data.equals(zh.data)).toBe(false);
  });

  it("draws the same card from the same input, whatever fonts the machine has", async () => {
    const a = await renderCard({ ...base, title: LONG_ZH, locale: "zh" });
    const b = await renderCard({ ...base, title: LONG_ZH, locale: "zh" });
    expect(a.data.equals(b.data)).toBe(true);
  });

  it("draws the title's glyphs: a title changes the picture", async () => {
    const a = await renderCard({ ...base, title: "一", locale: "zh" });
    const b = await renderCard({ ...base, title: "墨", locale: "zh" });
    const blank = await renderCard({ ...base, title: "", locale: "zh" });
    expect(a.data.equals(b.data)).toBe(false);
    expect(a.data.equals(blank.data)).toBe(false);
  });

  it("paints the accent band and puts the cover on the right", async () => {
    const cover = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#00a000" } })
      .jpeg()
      .toBuffer();
    const withCover = await renderCard({ ...base, title: "Green", locale: "en", cover });
    const without = await renderCard({ ...base, title: "Green", locale: "en" });
    expect(near(await pixel(withCover.data, 5, 300), [0xbe, 0x12, 0x3c])).toBe(true);
    expect(near(await pixel(withCover.data, 1100, 300), [0, 0xa0, 0])).toBe(true);
    expect(near(await pixel(without.data, 1100, 300), [255, 255, 255])).toBe(true);
  });
});
