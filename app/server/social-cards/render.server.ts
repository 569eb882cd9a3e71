import type { PathCommand } from "opentype.js";
import type { Locale } from "../../lib/i18n/locale.ts";
import { glyphsFor } from "./fonts.server.ts";
import { type Line, layoutLine, layoutTitle } from "./layout.server.ts";

// Draws a post's social card: 1200×630, the title in the card's language, the site's name
// (and logo), the accent colour, the cover on the right when there is one. Text is turned into
// outlines here (fonts.server.ts) and the picture is an SVG of paths that sharp rasterizes, so
// no system font and no font configuration takes part: the same input gives the same image on
// any machine.

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** Bumped when the drawing changes, so every card is made again. */
export const CARD_DESIGN_VERSION = 1;

export interface CardContent {
  title: string;
  locale: Locale;
  siteName: string;
  /** `#rrggbb`: the band on the left and the site's name. */
  accent: string;
  /** The cover's bytes (any format sharp reads); null: a card of text only. */
  cover: Buffer | null;
  /** The logo's bytes; null: the name alone. */
  logo: Buffer | null;
}

export interface RenderedCard {
  data: Buffer;
  contentType: "image/jpeg";
  width: number;
  height: number;
}

const BAND = 20;
const LEFT = BAND + 68;
const TOP = 76;
const COVER_WIDTH = 480;
const FOOT_HEIGHT = 56;
const FOOT_BOTTOM = 62;
const INK = "#18181b";
const PAPER = "#ffffff";

type SharpModule = typeof import("sharp")["default"];
let sharpLoading: Promise<SharpModule> | undefined;
const loadSharp = (): Promise<SharpModule> => {
  sharpLoading ??= import("sharp").then((m) => {
    m.default.cache(false);
    return m.default;
  });
  return sharpLoading;
};

const num = (v: number) => (Math.round(v * 10) / 10).toString();

/**
 * A glyph's outline as SVG path data, written here: opentype.js's own writer (toPathData)
 * sometimes prints NaN for a point, which ends the drawing of the whole path.
 */
export function pathData(commands: readonly PathCommand[]): string {
  let out = "";
  for (const c of commands) {
    const points =
      c.type === "Z"
        ? []
        : c.type === "Q"
          ? [c.x1, c.y1, c.x, c.y]
          : c.type === "C"
            ? [c.x1, c.y1, c.x2, c.y2, c.x, c.y]
            : [c.x, c.y];
    if (!points.every(Number.isFinite)) continue;
    out += c.type + points.map(num).join(" ");
  }
  return out;
}

/** A line's outlines as one SVG path, its pen starting at (x, baseline). */
function linePath(line: Line, size: number, x: number, baseline: number): string {
  return line.glyphs.map((g) => pathData(g.placed.glyph.getPath(x + g.x, baseline, size).commands)).join("");
}

const isHex = (value: string) => /^#[0-9a-f]{6}$/i.test(value);

/** The card as a JPEG. Throws only on a broken font package; a cover or logo that will not decode is left out. */
export async function renderCard(content: CardContent): Promise<RenderedCard> {
  const sharp = await loadSharp();
  const accent = isHex(content.accent) ? content.accent : "#1d4ed8";

  const cover = content.cover
    ? await sharp(content.cover, { limitInputPixels: 40_000_000 })
        .rotate()
        .resize(COVER_WIDTH, CARD_HEIGHT, { fit: "cover", position: "attention" })
        .png()
        .toBuffer()
        .catch(() => null)
    : null;
  const logo = content.logo
    ? await sharp(content.logo, { limitInputPixels: 40_000_000 })
        .resize(FOOT_HEIGHT, FOOT_HEIGHT, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer()
        .catch(() => null)
    : null;

  const textRight = cover ? CARD_WIDTH - COVER_WIDTH - 56 : CARD_WIDTH - 80;
  const titleGlyphs = await glyphsFor(content.title, 700);
  const title = layoutTitle(content.title, content.locale, titleGlyphs, textRight - LEFT);
  const lineHeight = Math.round(title.fontSize * 1.28);
  const titlePaths = title.lines
    .map((line, i) => linePath(line, title.fontSize, LEFT, TOP + title.fontSize + i * lineHeight))
    .join("");

  const nameSize = 30;
  const nameX = logo ? LEFT + FOOT_HEIGHT + 20 : LEFT;
  const nameGlyphs = await glyphsFor(content.siteName, 700);
  const name = layoutLine(content.siteName, nameGlyphs, nameSize, textRight - nameX);
  const footTop = CARD_HEIGHT - FOOT_BOTTOM - FOOT_HEIGHT;
  const nameBaseline = footTop + FOOT_HEIGHT / 2 + nameSize * 0.36;
  const namePath = linePath(name, nameSize, nameX, nameBaseline);

  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">`,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${PAPER}"/>`,
    `<rect width="${BAND}" height="${CARD_HEIGHT}" fill="${accent}"/>`,
    `<path d="${titlePaths}" fill="${INK}"/>`,
    `<path d="${namePath}" fill="${accent}"/>`,
    "</svg>",
  ].join("");

  if (process.env.CARD_SVG_DEBUG) (await import("node:fs")).writeFileSync(process.env.CARD_SVG_DEBUG, svg);
  const layers: Array<{ input: Buffer; left: number; top: number }> = [];
  if (cover) layers.push({ input: cover, left: CARD_WIDTH - COVER_WIDTH, top: 0 });
  if (logo) layers.push({ input: logo, left: LEFT, top: footTop });
  const { data, info } = await sharp(Buffer.from(svg))
    .composite(layers)
    .flatten({ background: PAPER })
    .jpeg({ quality: 86, chromaSubsampling: "4:4:4", mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return { data, contentType: "image/jpeg", width: info.width, height: info.height };
}
