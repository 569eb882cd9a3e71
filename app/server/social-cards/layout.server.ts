import type { Locale } from "../../lib/i18n/locale.ts";
import { chineseWords } from "../search/tokenize.server.ts";
import type { GlyphSet, PlacedGlyph } from "./fonts.server.ts";

// Line breaking for a card's title, without a browser: the text is cut into units that must
// stay whole, and the units are laid out greedily. Latin words break only at spaces; Chinese
// text breaks between words (jieba, as search segments it), never inside one; closing
// punctuation never starts a line and opening punctuation never ends one.

/** Punctuation that belongs to what comes before it. */
const CLOSING = /^[\p{Pe}\p{Pf},.;:!?%’”、。，．！？；：…‥〕〉》」』】〗〙〛）］｝〜·・ー]+$/u;
/** Punctuation that belongs to what comes after it. */
const OPENING = /[\p{Ps}\p{Pi}‘“〔〈《「『【〖〘〚（［｛]$/u;
/** Characters after which, or before which, a line may break without a space. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/** One unit of a title: kept on one line; `space` is the trailing space, not drawn at a line's end. */
interface Unit {
  text: string;
  space: string;
}

/** Cuts `text` into the pieces a line may break between. */
export function breakUnits(text: string, locale: Locale): string[] {
  return units(text, locale).map((u) => u.text + u.space);
}

const LATIN_WORDS = new Intl.Segmenter("en", { granularity: "word" });

/** The text's pieces: words (Chinese ones from jieba, as search cuts them), spaces, punctuation. */
function segments(text: string, locale: Locale): string[] {
  if (locale === "zh" || CJK.test(text)) return chineseWords(text);
  return Array.from(LATIN_WORDS.segment(text), (s) => s.segment);
}

function units(text: string, locale: Locale): Unit[] {
  const out: Unit[] = [];
  for (const segment of segments(text.replace(/\s+/g, " ").trim(), locale)) {
    const last = out[out.length - 1];
    if (!last) {
      out.push({ text: segment, space: "" });
      continue;
    }
    if (/^\s+$/.test(segment)) {
      last.space = " ";
      continue;
    }
    const joins =
      (last.space === "" && CLOSING.test(segment)) ||
      (last.space === "" && OPENING.test(last.text)) ||
      (last.space === "" && !CJK.test(segment) && !CJK.test(last.text.slice(-1)));
    if (joins) last.text += segment;
    else out.push({ text: segment, space: "" });
  }
  return out.filter((u) => u.text !== "");
}

/** A glyph at its pen position on the line, in pixels from the line's start. */
export interface LineGlyph {
  placed: PlacedGlyph;
  x: number;
}

export interface Line {
  text: string;
  glyphs: LineGlyph[];
  width: number;
}

export interface TitleLayout {
  lines: Line[];
  fontSize: number;
  /** The title did not fit in the lines allowed at the smallest size: the last line ends in "…". */
  truncated: boolean;
}

/** Measures a run of text at `size` px, kerning pairs within one font slice. */
function shape(text: string, glyphs: GlyphSet, size: number, startX = 0): Line {
  const scale = size / glyphs.unitsPerEm;
  const out: LineGlyph[] = [];
  let x = startX;
  let previous: PlacedGlyph | null = null;
  for (const char of text) {
    const placed = glyphs.glyph(char);
    if (!placed) continue;
    if (previous && previous.font === placed.font) {
      // opentype.js answers undefined for some pairs of a GPOS-kerned font: no kerning then.
      const kerning = Number(previous.font.getKerningValue(previous.glyph, placed.glyph));
      if (Number.isFinite(kerning)) x += kerning * scale;
    }
    out.push({ placed, x });
    x += placed.advance * scale;
    previous = placed;
  }
  return { text, glyphs: out, width: x - startX };
}

/** Greedy lines of at most `maxWidth` px; a unit wider than a line is cut between characters. */
function wrap(list: readonly Unit[], glyphs: GlyphSet, size: number, maxWidth: number): string[] {
  const measure = (text: string) => shape(text, glyphs, size).width;
  const lines: string[] = [];
  let current = "";
  let pendingSpace = "";
  const push = () => {
    if (current !== "") lines.push(current);
    current = "";
    pendingSpace = "";
  };
  for (const unit of list) {
    const candidate = current === "" ? unit.text : current + pendingSpace + unit.text;
    if (measure(candidate) <= maxWidth) {
      current = candidate;
      pendingSpace = unit.space;
      continue;
    }
    push();
    if (measure(unit.text) <= maxWidth) {
      current = unit.text;
      pendingSpace = unit.space;
      continue;
    }
    // A word longer than the line (a URL, a long compound): cut it where it overflows.
    for (const char of unit.text) {
      if (current !== "" && measure(current + char) > maxWidth) push();
      current += char;
    }
    pendingSpace = unit.space;
  }
  push();
  return lines;
}

/** The sizes tried, largest first, and how many lines each may take. */
export const TITLE_SIZES: ReadonlyArray<{ size: number; maxLines: number }> = [
  { size: 72, maxLines: 3 },
  { size: 64, maxLines: 4 },
  { size: 56, maxLines: 5 },
  { size: 48, maxLines: 5 },
];

/**
 * Lays the title out at the largest size at which it fits; at the smallest size a title that
 * still does not fit keeps its first lines and ends in "…".
 */
export function layoutTitle(title: string, locale: Locale, glyphs: GlyphSet, maxWidth: number): TitleLayout {
  const list = units(title, locale);
  let fallback: { size: number; maxLines: number } = { size: 48, maxLines: 5 };
  for (const option of TITLE_SIZES) {
    fallback = option;
    const lines = wrap(list, glyphs, option.size, maxWidth);
    if (lines.length <= option.maxLines) {
      return { lines: lines.map((l) => toLine(l, glyphs, option.size)), fontSize: option.size, truncated: false };
    }
  }
  const { size, maxLines } = fallback;
  const lines = wrap(list, glyphs, size, maxWidth).slice(0, maxLines);
  lines[maxLines - 1] = withEllipsis(lines[maxLines - 1] ?? "", glyphs, size, maxWidth);
  return { lines: lines.map((l) => toLine(l, glyphs, size)), fontSize: size, truncated: true };
}

function toLine(text: string, glyphs: GlyphSet, size: number): Line {
  return shape(text.trimEnd(), glyphs, size);
}

/** One line of text at `size` px (the site name), cut with "…" when wider than `maxWidth`. */
export function layoutLine(text: string, glyphs: GlyphSet, size: number, maxWidth: number): Line {
  const line = shape(text, glyphs, size);
  if (line.width <= maxWidth) return line;
  return shape(withEllipsis(text, glyphs, size, maxWidth), glyphs, size);
}

/** `text` shortened until it fits with "…" after it; a space or comma before the "…" goes too. */
function withEllipsis(text: string, glyphs: GlyphSet, size: number, maxWidth: number): string {
  const chars = [...text];
  const cut = () => `${chars.join("").replace(/[\s,.;:，。、；：]+$/u, "")}…`;
  while (chars.length > 0 && shape(cut(), glyphs, size).width > maxWidth) chars.pop();
  return cut();
}
