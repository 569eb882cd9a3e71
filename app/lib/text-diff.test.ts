import { describe, expect, it } from "vitest";
import { diffText, hasChanges, tokenize } from "./text-diff.ts";

const rebuild = (parts: ReturnType<typeof diffText>, side: "before" | "after") =>
  parts
    .filter((p) => p.op === "equal" || p.op === (side === "before" ? "delete" : "insert"))
    .map((p) => p.text)
    .join("");

describe("text diff", () => {
  it("splits English into words and Chinese into characters", () => {
    expect(tokenize("Hello, big world", "en")).toEqual(["Hello", ",", " ", "big", " ", "world"]);
    expect(tokenize("我们在 Kysely 里", "zh")).toEqual(["我", "们", "在", " ", "Kysely", " ", "里"]);
  });

  it("marks changed English words, not letters", () => {
    expect(diffText("The quick brown fox", "The slow brown fox", "en")).toEqual([
      { op: "equal", text: "The " },
      { op: "delete", text: "quick" },
      { op: "insert", text: "slow" },
      { op: "equal", text: " brown fox" },
    ]);
  });

  it("marks changed Chinese characters", () => {
    expect(diffText("今天天气很好", "今天天气不好", "zh")).toEqual([
      { op: "equal", text: "今天天气" },
      { op: "delete", text: "很" },
      { op: "insert", text: "不" },
      { op: "equal", text: "好" },
    ]);
  });

  it("compares line by line first and rebuilds both sides exactly", () => {
    const before = "# Title\n\nFirst paragraph stays.\n\nSecond one changes here.\n\nEnd.\n";
    const after = "# Title\n\nFirst paragraph stays.\n\nSecond one was changed here.\n\nA new line.\n\nEnd.\n";
    const parts = diffText(before, after, "en");
    expect(rebuild(parts, "before")).toBe(before);
    expect(rebuild(parts, "after")).toBe(after);
    expect(parts.filter((p) => p.op === "insert").map((p) => p.text)).toEqual(["was changed", "A new line.\n\n"]);
    expect(hasChanges(parts)).toBe(true);
    expect(hasChanges(diffText(before, before, "en"))).toBe(false);
  });

  it("replaces a stretch too large to compare finely, still exactly", () => {
    const before = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" ");
    const after = Array.from({ length: 3000 }, (_, i) => `v${i}`).join(" ");
    const parts = diffText(before, after, "en");
    expect(rebuild(parts, "before")).toBe(before);
    expect(rebuild(parts, "after")).toBe(after);
  });
});
