import { describe, expect, it } from "vitest";
import {
  codeBlock,
  insertLink,
  insertTable,
  placeBlock,
  type TextEdit,
  toggleInline,
  toggleLines,
} from "./markdown-edits.ts";

/** The text after an edit, with the cursor (or selection) marked by | characters. */
function apply(doc: string, edit: TextEdit): string {
  const text = doc.slice(0, edit.from) + edit.insert + doc.slice(edit.to);
  const [a, b] = [Math.min(edit.anchor, edit.head), Math.max(edit.anchor, edit.head)];
  return a === b ? `${text.slice(0, a)}|${text.slice(a)}` : `${text.slice(0, a)}|${text.slice(a, b)}|${text.slice(b)}`;
}

/** Runs an edit on a text whose cursor is marked by one | (or a selection by two). */
function run(marked: string, edit: (doc: string, from: number, to: number) => TextEdit): string {
  const from = marked.indexOf("|");
  const second = marked.indexOf("|", from + 1);
  const doc = marked.replaceAll("|", "");
  const to = second === -1 ? from : second - 1;
  return apply(doc, edit(doc, from, to));
}

describe("toggleInline", () => {
  it("wraps the selection and unwraps it again", () => {
    expect(run("a |word| b", (d, f, t) => toggleInline(d, f, t, "bold"))).toBe("a **|word|** b");
    expect(run("a **|word|** b", (d, f, t) => toggleInline(d, f, t, "bold"))).toBe("a |word| b");
    expect(run("a |**word**| b", (d, f, t) => toggleInline(d, f, t, "bold"))).toBe("a |word| b");
  });

  it("puts empty marks around the cursor", () => {
    expect(run("a |", (d, f, t) => toggleInline(d, f, t, "italic"))).toBe("a _|_");
    expect(run("|x|", (d, f, t) => toggleInline(d, f, t, "code"))).toBe("`|x|`");
  });
});

describe("insertLink", () => {
  it("links the selection, the cursor waiting for the address", () => {
    expect(run("see |docs| now", insertLink)).toBe("see [docs](|) now");
    expect(run("see |", insertLink)).toBe("see [|]()");
  });
});

describe("toggleLines", () => {
  it("makes the cursor's line a heading and back, keeping the cursor in the text", () => {
    expect(run("one\nTi|tle\nthree", (d, f, t) => toggleLines(d, f, t, "heading"))).toBe("one\n## Ti|tle\nthree");
    expect(run("## Ti|tle", (d, f, t) => toggleLines(d, f, t, "heading"))).toBe("Ti|tle");
  });

  it("quotes and lists every selected line, numbering a numbered list", () => {
    expect(run("|a\nb|", (d, f, t) => toggleLines(d, f, t, "quote"))).toBe("|> a\n> b|");
    expect(run("|a\nb\nc|", (d, f, t) => toggleLines(d, f, t, "numbered"))).toBe("|1. a\n2. b\n3. c|");
    expect(run("|- a\n- b|", (d, f, t) => toggleLines(d, f, t, "numbered"))).toBe("|1. a\n2. b|");
    expect(run("|- a\n- b|", (d, f, t) => toggleLines(d, f, t, "bullet"))).toBe("|a\nb|");
  });
});

const IMAGE = "![A cat](/uploads/cat.png)";
const place = (marked: string) => run(marked, (d, f) => placeBlock(d, f, IMAGE));

describe("placeBlock", () => {
  it("puts an image after the cursor's paragraph, with a blank line before and after", () => {
    expect(place("Some te|xt\nstill the paragraph\n\nNext")).toBe(
      `Some text\nstill the paragraph\n\n${IMAGE}\n|\nNext`,
    );
    expect(place("Some text|")).toBe(`Some text\n\n${IMAGE}\n|`);
    expect(place("One|\nTwo")).toBe(`One\nTwo\n\n${IMAGE}\n|`);
  });

  it("stands apart from a quote above a blank line the cursor is on", () => {
    expect(place("> A quote\n|\nAfter")).toBe(`> A quote\n\n${IMAGE}\n|\nAfter`);
    expect(place("> A quote\n|")).toBe(`> A quote\n\n${IMAGE}\n|`);
  });

  it("does not glue onto the text right after the cursor's blank line", () => {
    expect(place("Before\n|\nAfter")).toBe(`Before\n\n${IMAGE}\n|\nAfter`);
    expect(place("|")).toBe(`${IMAGE}\n|`);
  });

  it("stays in the quote the cursor is in", () => {
    expect(place("> Quo|ted\n> more\n\nAfter")).toBe(`> Quoted\n> more\n>\n> ${IMAGE}\n|\nAfter`);
  });

  it("stays in the list item the cursor is in, indented under it", () => {
    expect(place("- one|\n- two")).toBe(`- one\n\n  ${IMAGE}\n|\n- two`);
    expect(place("1. one|")).toBe(`1. one\n\n   ${IMAGE}\n|`);
  });
});

describe("codeBlock and insertTable", () => {
  it("fences the selected lines, or opens an empty block of its own", () => {
    expect(run("a\n|x = 1|\nb", codeBlock)).toBe("a\n```\n|x = 1|\n```\nb");
    expect(run("Text|", codeBlock)).toBe("Text\n\n```\n|\n```\n");
  });

  it("puts a table on its own, the cursor in the first cell", () => {
    expect(run("Text|", (d, f) => insertTable(d, f))).toBe("Text\n\n| | |  |\n| --- | --- |\n|  |  |\n");
  });
});
