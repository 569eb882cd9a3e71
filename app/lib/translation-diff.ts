import { type DiffPart, diffText } from "./text-diff.ts";

// What changed in a language version, by paragraph, for the editor's "out of date" box
// (issue 47): the revision history's word/character diff (text-diff.ts), cut at blank
// lines, with the paragraphs that did not change folded into a count.

export type ParagraphBlock =
  /** A paragraph with changes: its diff. */
  | { kind: "changed"; parts: DiffPart[] }
  /** This many paragraphs in a row without a change. */
  | { kind: "same"; count: number };

export interface ParagraphDiff {
  changed: boolean;
  blocks: ParagraphBlock[];
}

const PARAGRAPH_BREAK = /(\n[ \t]*\n+)/;

/** The changes from `before` to `after` (by word in English, by character in Chinese), paragraph by paragraph. */
export function paragraphDiff(before: string, after: string, locale: "en" | "zh"): ParagraphDiff {
  const paragraphs: DiffPart[][] = [[]];
  // Line endings do not count (a browser submits CRLF, an import LF).
  const lines = (text: string) => text.replace(/\r\n?/g, "\n");
  for (const part of diffText(lines(before), lines(after), locale)) {
    // A blank line split between two parts: the paragraph ends where this part starts.
    const current = paragraphs[paragraphs.length - 1] ?? [];
    const tail = current[current.length - 1];
    let text = part.text;
    const lead = /^[ \t]*\n+/.exec(text);
    if (tail && /\n[ \t]*$/.test(tail.text) && lead) {
      paragraphs.push([]);
      text = text.slice(lead[0].length);
    }
    const pieces = text.split(PARAGRAPH_BREAK);
    pieces.forEach((piece, i) => {
      // Odd pieces are the blank lines between paragraphs: a new paragraph starts after each.
      if (i % 2 === 1) {
        paragraphs.push([]);
        return;
      }
      if (piece) paragraphs[paragraphs.length - 1]?.push({ op: part.op, text: piece });
    });
  }
  const blocks: ParagraphBlock[] = [];
  for (const parts of paragraphs) {
    if (parts.every((p) => p.text.trim() === "")) continue;
    if (parts.some((p) => p.op !== "equal")) {
      blocks.push({ kind: "changed", parts });
      continue;
    }
    const last = blocks[blocks.length - 1];
    if (last?.kind === "same") last.count++;
    else blocks.push({ kind: "same", count: 1 });
  }
  return { changed: blocks.some((b) => b.kind === "changed"), blocks };
}
