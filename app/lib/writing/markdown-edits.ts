// The formatting toolbar's edits and where an inserted block (an image, a table, a code
// block) goes, as pure functions over the text and the selection: CodeMirror and the plain
// textarea apply the same answer (issue 47).

/** One replacement and the selection after it (offsets in the new text). */
export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  anchor: number;
  head: number;
}

export type InlineFormat = "bold" | "italic" | "code";
export type LineFormat = "heading" | "quote" | "bullet" | "numbered";

const INLINE_MARK: Record<InlineFormat, string> = { bold: "**", italic: "_", code: "`" };

/**
 * Wraps the selection in the format's marks, or takes them off when they are already around
 * it; with nothing selected, the marks go in with the cursor between them.
 */
export function toggleInline(doc: string, from: number, to: number, format: InlineFormat): TextEdit {
  const mark = INLINE_MARK[format];
  const n = mark.length;
  const selected = doc.slice(from, to);
  if (selected.length >= 2 * n && selected.startsWith(mark) && selected.endsWith(mark)) {
    const inner = selected.slice(n, selected.length - n);
    return { from, to, insert: inner, anchor: from, head: from + inner.length };
  }
  if (doc.slice(from - n, from) === mark && doc.slice(to, to + n) === mark) {
    return { from: from - n, to: to + n, insert: selected, anchor: from - n, head: to - n };
  }
  return { from, to, insert: `${mark}${selected}${mark}`, anchor: from + n, head: to + n };
}

/** A link around the selection: `[text]()`, the cursor in the brackets left empty. */
export function insertLink(doc: string, from: number, to: number): TextEdit {
  const text = doc.slice(from, to);
  const insert = `[${text}]()`;
  const cursor = text === "" ? from + 1 : from + insert.length - 1;
  return { from, to, insert, anchor: cursor, head: cursor };
}

const LINE_PREFIX: Record<LineFormat, RegExp> = {
  heading: /^#{1,6}\s+/,
  quote: /^>\s?/,
  bullet: /^[-*+]\s+/,
  numbered: /^\d+[.)]\s+/,
};
/** Any block marker a line format replaces ("## " becomes "> " rather than "> ## "). */
const ANY_PREFIX = /^(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)/;

/**
 * Starts every line the selection touches with the format's marker (`## `, `> `, `- `,
 * `1. `…), or takes it off when each of them has it already.
 */
export function toggleLines(doc: string, from: number, to: number, format: LineFormat): TextEdit {
  const start = doc.lastIndexOf("\n", from - 1) + 1;
  const endBreak = doc.indexOf("\n", to > from && doc[to - 1] === "\n" ? to - 1 : to);
  const end = endBreak === -1 ? doc.length : endBreak;
  const lines = doc.slice(start, end).split("\n");
  const has = LINE_PREFIX[format];
  const remove = lines.every((line) => line.trim() === "" || has.test(line));
  let number = 0;
  const next = lines.map((line) => {
    if (remove) return line.replace(has, "");
    if (line.trim() === "" && lines.length > 1) return line;
    const bare = format === "quote" ? line : line.replace(ANY_PREFIX, "");
    number += 1;
    const marker =
      format === "heading" ? "## " : format === "quote" ? "> " : format === "bullet" ? "- " : `${number}. `;
    return marker + bare;
  });
  const insert = next.join("\n");
  if (from === to && lines.length === 1) {
    // The cursor keeps its place in the line's text.
    const shift = insert.length - (end - start);
    const cursor = Math.max(start, from + shift);
    return { from: start, to: end, insert, anchor: cursor, head: cursor };
  }
  return { from: start, to: end, insert, anchor: start, head: start + insert.length };
}

/** Whether a line of a list item starts: `- `, `* `, `+ `, `1. `, `1) `. */
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(\s+)/;
/** The quote markers a line starts with: `> `, `>> `, `> > `. */
const QUOTE = /^(\s{0,3}>\s?)+/;

/**
 * Where a block goes and with what before its lines: in the quote or list item the cursor is
 * in (never one it is only next to), after the paragraph or item the cursor is in, with a
 * blank line before and after it.
 *
 * `block` is the block's own lines (an image's Markdown, a table, a fence); the answer puts
 * the cursor at the start of the line after the blank line that follows it.
 */
export function placeBlock(doc: string, pos: number, block: string): TextEdit {
  const lines = doc.split("\n");
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  let index = 0;
  while (index + 1 < lines.length && (starts[index + 1] ?? 0) <= pos) index += 1;
  const lineAt = (i: number) => lines[i] ?? "";
  const current = lineAt(index);

  // The context: the cursor's quote, or the item its line belongs to; none on a blank line.
  let prefix = "";
  if (current.trim() !== "") {
    const quote = current.match(QUOTE);
    const item = current.match(LIST_ITEM);
    if (quote) prefix = quote[0].endsWith(" ") ? quote[0] : `${quote[0]} `;
    else if (item) prefix = " ".repeat((item[1] ?? "").length + (item[2] ?? "").length + (item[3] ?? " ").length);
    else {
      // A continuation line of a list item: indented under it.
      const indent = current.match(/^\s+/)?.[0] ?? "";
      if (indent.length >= 2) {
        for (let i = index - 1; i >= 0 && lineAt(i).trim() !== ""; i -= 1) {
          const above = lineAt(i).match(LIST_ITEM);
          if (above) {
            prefix = " ".repeat((above[1] ?? "").length + (above[2] ?? "").length + (above[3] ?? " ").length);
            break;
          }
        }
      }
    }
  }
  const blankIn = prefix.trimEnd();
  const body = (line: string) =>
    prefix.trim() !== "" && line.startsWith(prefix.trim()) ? line.replace(QUOTE, "") : line;
  const isBlank = (line: string) => body(line).trim() === "";

  // After the paragraph (or item) the cursor is in: its lines go on until a blank line, another
  // item, or a line outside the quote.
  let last = index;
  if (!isBlank(current)) {
    while (last + 1 < lines.length) {
      const next = lineAt(last + 1);
      if (isBlank(next) || LIST_ITEM.test(body(next))) break;
      if (blankIn !== "" && !QUOTE.test(next)) break;
      if (prefix !== "" && blankIn === "" && !next.startsWith(prefix)) break;
      last += 1;
    }
  }

  const blockLines = block.split("\n").map((line) => (line === "" ? blankIn : prefix + line));
  const hasNext = (i: number) => i + 1 < lines.length;
  if (isBlank(current)) {
    // The block takes the blank line's place, with blank lines around it where text touches it.
    const from = starts[index] ?? 0;
    const before = index > 0 && !isBlank(lineAt(index - 1)) ? [blankIn] : [];
    const nextBlank = hasNext(index) && isBlank(lineAt(index + 1));
    const after = nextBlank ? [] : [hasNext(index) ? blankIn : ""];
    const insert = [...before, ...blockLines, ...after].join("\n");
    const cursor = from + insert.length + (nextBlank ? 1 : 0);
    return { from, to: from + current.length, insert, anchor: cursor, head: cursor };
  }
  // After the paragraph or item: a blank line, the block, and a blank line before what follows.
  const from = (starts[last] ?? 0) + lineAt(last).length;
  const nextBlank = hasNext(last) && isBlank(lineAt(last + 1));
  const after = nextBlank ? [] : [hasNext(last) ? blankIn : ""];
  const insert = ["", blankIn, ...blockLines, ...after].join("\n");
  const cursor = from + insert.length + (nextBlank ? 1 : 0);
  return { from, to: from, insert, anchor: cursor, head: cursor };
}

/** A fenced code block around the selected lines, or an empty one of its own, the cursor in it. */
export function codeBlock(doc: string, from: number, to: number): TextEdit {
  if (from === to) {
    const edit = placeBlock(doc, from, "```\n\n```");
    const inside = edit.from + edit.insert.indexOf("```") + 4;
    return { ...edit, anchor: inside, head: inside };
  }
  const start = doc.lastIndexOf("\n", from - 1) + 1;
  const endBreak = doc.indexOf("\n", doc[to - 1] === "\n" ? to - 1 : to);
  const end = endBreak === -1 ? doc.length : endBreak;
  const text = doc.slice(start, end);
  const insert = `\`\`\`\n${text}\n\`\`\``;
  return { from: start, to: end, insert, anchor: start + 4, head: start + 4 + text.length };
}

/** A two-column table of its own, the cursor in its first header cell. */
export function insertTable(doc: string, from: number): TextEdit {
  const edit = placeBlock(doc, from, "|  |  |\n| --- | --- |\n|  |  |");
  const cell = edit.from + edit.insert.indexOf("|  |") + 2;
  return { ...edit, anchor: cell, head: cell };
}
