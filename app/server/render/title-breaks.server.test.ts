import { describe, expect, it } from "vitest";
import { titleRuns } from "./title-breaks.server.ts";

describe("titleRuns", () => {
  it("cuts a Chinese title between words, never inside one", () => {
    expect(titleRuns("中华人民共和国成立七十周年纪念活动", "zh")).toEqual([
      "中华",
      "人民",
      "共和国",
      "成立",
      "七十",
      "周年",
      "纪念",
      "活动",
    ]);
  });

  it("keeps punctuation and spaces with the word before them", () => {
    const runs = titleRuns("用React写迁移工具（上）：从零开始", "zh");
    expect(runs?.join("")).toBe("用React写迁移工具（上）：从零开始");
    expect(runs).toContain("React");
    // No run starts with a closing mark or a colon.
    expect(runs?.filter((run) => /^[）：，。]/.test(run))).toEqual([]);
    // A space is a break point of its own: no <wbr> is needed beside it.
    expect(titleRuns("一篇文章看全所有 Markdown 元素", "zh")).toEqual([
      "一篇",
      "文章",
      "看",
      "全",
      "所有 Markdown 元素",
    ]);
  });

  it("leaves other languages alone", () => {
    expect(titleRuns("A style guide in one post", "en")).toBeNull();
  });

  it("gives an empty title no runs", () => {
    expect(titleRuns("", "zh")).toEqual([]);
  });
});
