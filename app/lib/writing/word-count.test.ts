import { describe, expect, it } from "vitest";
import { countText, lengthOf, readingMinutesOf } from "./word-count.ts";

describe("countText", () => {
  it("counts English words, not punctuation or Markdown markers", () => {
    expect(countText("# A title\n\nIt's a **well-known** fact — *really*.\n\n- one\n- two")).toEqual({
      words: 9,
      cjk: 0,
    });
  });

  it("counts each Chinese character once and Latin words among them as words", () => {
    expect(countText("我们用 React 写博客。")).toEqual({ words: 1, cjk: 6 });
    expect(lengthOf(countText("我们用 React 写博客。"))).toBe(7);
  });

  it("counts neither images nor link targets nor bare addresses", () => {
    const text = "See [the docs](https://example.com/a/b) and ![a cat](/uploads/cat.png) at https://x.org/y";
    expect(countText(text)).toEqual({ words: 5, cjk: 0 });
  });

  it("counts nothing in empty text", () => {
    expect(countText("  \n\n")).toEqual({ words: 0, cjk: 0 });
  });
});

describe("readingMinutesOf", () => {
  it("reads 230 English words or 400 Chinese characters a minute, at least one for any text", () => {
    expect(readingMinutesOf({ words: 0, cjk: 0 })).toBe(0);
    expect(readingMinutesOf({ words: 3, cjk: 0 })).toBe(1);
    expect(readingMinutesOf({ words: 690, cjk: 0 })).toBe(3);
    expect(readingMinutesOf({ words: 0, cjk: 1200 })).toBe(3);
    expect(readingMinutesOf({ words: 230, cjk: 400 })).toBe(2);
  });
});
