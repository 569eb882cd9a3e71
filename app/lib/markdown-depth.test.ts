import { describe, expect, it } from "vitest";
import { MAX_MARKDOWN_NESTING, markdownDepth, withinNesting } from "./markdown-depth.ts";

describe("markdownDepth", () => {
  it("counts quotes, list markers and indentation at the start of a line", () => {
    expect(markdownDepth("plain text")).toBe(0);
    expect(markdownDepth("> a quote")).toBe(1);
    expect(markdownDepth("> > > three")).toBe(3);
    expect(markdownDepth(">>>> four")).toBe(4);
    expect(markdownDepth("- a\n  - b\n    - c")).toBe(3);
    expect(markdownDepth("1. one\n2) two")).toBe(1);
    expect(markdownDepth("- - - x")).toBe(3);
    expect(markdownDepth("> - 1. x")).toBe(3);
  });

  it("does not count what only looks like a marker", () => {
    expect(markdownDepth("-no space")).toBe(0);
    expect(markdownDepth("2026. was a year")).toBe(1); // a real ordered list in Markdown too
    expect(markdownDepth("a > b and - c")).toBe(0);
    expect(markdownDepth("**bold** - dash")).toBe(0);
  });

  it("refuses the shapes that overflowed the parser, and keeps ordinary writing", () => {
    expect(withinNesting(">".repeat(4990))).toBe(false);
    expect(withinNesting("- ".repeat(2495))).toBe(false);
    expect(withinNesting("1. ".repeat(1663))).toBe(false);
    expect(withinNesting(`${"  ".repeat(40)}- deep`)).toBe(false);
    expect(withinNesting("# Title\n\n> quote\n>\n> - item\n>   - sub\n\n```js\n    indented(code);\n```")).toBe(true);
    expect(withinNesting("> ".repeat(MAX_MARKDOWN_NESTING))).toBe(true);
    expect(withinNesting("> ".repeat(MAX_MARKDOWN_NESTING + 1))).toBe(false);
  });

  it("stops reading once the limit is passed", () => {
    const huge = `${">".repeat(100)}\n${"x".repeat(1_000_000)}`;
    expect(markdownDepth(huge)).toBeGreaterThan(MAX_MARKDOWN_NESTING);
  });
});
