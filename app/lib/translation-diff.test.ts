import { describe, expect, it } from "vitest";
import { headingLines, markdownSections, sectionAtLine } from "./markdown-sections.ts";
import { paragraphDiff } from "./translation-diff.ts";

describe("paragraphDiff", () => {
  it("shows the changed paragraphs and folds the others into counts", () => {
    const before = "One.\n\nTwo.\n\nThree.\n\nFour.";
    const after = "One.\n\nTwo, changed.\n\nThree.\n\nFour.\n\nFive.";
    const diff = paragraphDiff(before, after, "en");
    expect(diff.changed).toBe(true);
    expect(
      diff.blocks.map((b) => (b.kind === "same" ? b.count : b.parts.map((p) => `${p.op}:${p.text}`).join("|"))),
    ).toEqual([1, "equal:Two|insert:, changed|equal:.", 2, "insert:Five."]);
  });

  it("diffs Chinese by character, and says nothing changed when nothing did", () => {
    const diff = paragraphDiff("绿茶很温和。", "绿茶很甜。", "zh");
    const [block] = diff.blocks;
    expect(
      block?.kind === "changed" && block.parts.filter((p) => p.op !== "equal").map((p) => `${p.op}:${p.text}`),
    ).toEqual(["delete:温和", "insert:甜"]);
    expect(paragraphDiff("Same.\n\nText.", "Same.\r\n\r\nText.", "en")).toEqual({
      changed: false,
      blocks: [{ kind: "same", count: 2 }],
    });
  });
});

describe("markdown sections", () => {
  const text = "Intro.\n\n# One\n\nText.\n\n```\n# not a heading\n```\n\n## Two\nMore.";

  it("finds the headings outside code", () => {
    expect(headingLines(text)).toEqual([3, 11]);
    expect(sectionAtLine([3, 11], 1)).toBe(0);
    expect(sectionAtLine([3, 11], 3)).toBe(1);
    expect(sectionAtLine([3, 11], 10)).toBe(1);
    expect(sectionAtLine([3, 11], 12)).toBe(2);
  });

  it("cuts the text at them, with what comes before the first one first", () => {
    expect(markdownSections(text)).toEqual([
      "Intro.\n",
      "# One\n\nText.\n\n```\n# not a heading\n```\n",
      "## Two\nMore.",
    ]);
    expect(markdownSections("# Only")).toEqual(["", "# Only"]);
  });
});
