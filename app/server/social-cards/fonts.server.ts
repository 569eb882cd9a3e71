import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Font, Glyph } from "opentype.js";

// The typeface of the social cards: Noto Sans SC (SIL Open Font License 1.1), installed from
// the npm registry as @fontsource/noto-sans-sc at a pinned version, so a card comes out the
// same on every machine whatever fonts the system has. The package cuts the font into about a
// hundred files by Unicode range (latin, latin-ext, and numbered slices of the CJK ideographs);
// a card reads only the slices its text needs, so Chinese titles get their glyphs without
// loading the 16 MB font (docs/decisions/036-social-cards-and-brand.md).

export type FontWeight = 400 | 700;

interface Slice {
  start: number;
  end: number;
  name: string;
}

const require = createRequire(import.meta.url);

/** The folder of the font package; resolved through one of the files it exports. */
function packageDir(): string {
  return path.dirname(require.resolve("@fontsource/noto-sans-sc/LICENSE"));
}

/**
 * Every Unicode range of the package and the slice that holds it, sorted by start: the named
 * slices (latin, latin-ext, cyrillic, vietnamese) first, then the numbered CJK slices, some of
 * which repeat ASCII letters; a character is drawn from the first slice that lists it.
 */
type SliceTable = [named: Slice[], numbered: Slice[]];
let slicesLoading: Promise<SliceTable> | undefined;

function slices(): Promise<SliceTable> {
  slicesLoading ??= (async () => {
    const text = await readFile(path.join(packageDir(), "unicode.json"), "utf8");
    const table = JSON.parse(text) as Record<string, string>;
    const named: Slice[] = [];
    const numbered: Slice[] = [];
    for (const [key, ranges] of Object.entries(table)) {
      const number = /^\[(\d+)\]$/.exec(key)?.[1];
      const name = number ?? key;
      for (const part of ranges.split(",")) {
        const m = /^U\+([0-9a-f]+)(?:-([0-9a-f]+))?$/i.exec(part.trim());
        if (!m?.[1]) continue;
        const start = Number.parseInt(m[1], 16);
        (number ? numbered : named).push({ start, end: m[2] ? Number.parseInt(m[2], 16) : start, name });
      }
    }
    const byStart = (a: Slice, b: Slice) => a.start - b.start;
    return [named.sort(byStart), numbered.sort(byStart)];
  })();
  return slicesLoading;
}

function sliceOf(all: readonly Slice[], codePoint: number): string | null {
  let lo = 0;
  let hi = all.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = all[mid];
    if (!s) break;
    if (codePoint < s.start) hi = mid - 1;
    else if (codePoint > s.end) lo = mid + 1;
    else return s.name;
  }
  return null;
}

/** Parsed slices, kept for the process: a few hundred KiB each, and cards reuse them. */
const parsed = new Map<string, Promise<Font>>();
/** The most slices kept parsed; the oldest go first. */
const MAX_PARSED = 32;

type OpenType = typeof import("opentype.js")["default"];
let opentypeLoading: Promise<OpenType> | undefined;
const loadOpentype = (): Promise<OpenType> => {
  opentypeLoading ??= import("opentype.js").then((m) => m.default);
  return opentypeLoading;
};

function loadSlice(name: string, weight: FontWeight): Promise<Font> {
  const key = `${name}-${weight}`;
  let font = parsed.get(key);
  if (font) {
    parsed.delete(key);
    parsed.set(key, font);
    return font;
  }
  font = (async () => {
    const file = path.join(packageDir(), "files", `noto-sans-sc-${name}-${weight}-normal.woff`);
    const data = await readFile(file);
    const opentype = await loadOpentype();
    return opentype.parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  })();
  font.catch(() => parsed.delete(key));
  parsed.set(key, font);
  while (parsed.size > MAX_PARSED) {
    const oldest = parsed.keys().next().value;
    if (oldest === undefined) break;
    parsed.delete(oldest);
  }
  return font;
}

/** One character's glyph, in the font (slice) that has it. */
export interface PlacedGlyph {
  font: Font;
  glyph: Glyph;
  /** Advance in font units. */
  advance: number;
}

/** What a text needs to be measured and drawn: a glyph for every character the font has. */
export interface GlyphSet {
  /** The glyph for one character (a code point), or null when the typeface lacks it. */
  glyph(char: string): PlacedGlyph | null;
  unitsPerEm: number;
  ascender: number;
  descender: number;
}

/**
 * Loads the slices `text` needs in `weight` and answers glyphs from them. A character the
 * typeface does not have (an emoji) is null: the layout leaves it out rather than draw a box.
 */
export async function glyphsFor(text: string, weight: FontWeight): Promise<GlyphSet> {
  const [named, numbered] = await slices();
  const names = new Set<string>(["latin"]);
  const sliceByChar = new Map<string, string>();
  for (const char of new Set(text)) {
    const codePoint = char.codePointAt(0) ?? 0;
    const name = sliceOf(named, codePoint) ?? sliceOf(numbered, codePoint);
    if (!name) continue;
    names.add(name);
    sliceByChar.set(char, name);
  }
  const fonts = new Map<string, Font>();
  for (const name of names) fonts.set(name, await loadSlice(name, weight));
  const latin = fonts.get("latin");
  if (!latin) throw new Error("the latin slice of the card typeface is missing");
  const cache = new Map<string, PlacedGlyph | null>();
  return {
    unitsPerEm: latin.unitsPerEm,
    ascender: latin.ascender,
    descender: latin.descender,
    glyph(char) {
      const known = cache.get(char);
      if (known !== undefined) return known;
      const font = fonts.get(sliceByChar.get(char) ?? "latin");
      let placed: PlacedGlyph | null = null;
      if (font?.hasChar(char)) {
        const glyph = font.charToGlyph(char);
        placed = { font, glyph, advance: glyph.advanceWidth ?? 0 };
      }
      cache.set(char, placed);
      return placed;
    },
  };
}
