import { describe, expect, it } from "vitest";
import { toPinyin } from "./pinyin.ts";
import { shortSlug, slugFromNames } from "./slug.ts";

describe("slugFromNames", () => {
  it.each([
    ["English words", ["Travel Notes", "旅行笔记"], "travel-notes"],
    ["Chinese as toneless pinyin", ["旅行笔记"], "lv-xing-bi-ji"],
    ["a Chinese English name falls back to pinyin", ["中文", "中文"], "zhong-wen"],
    ["mixed text", ["Go 语言"], "go-yu-yan"],
    ["symbols in the first name, Chinese in the second", ["!!!", "编程"], "bian-cheng"],
    ["symbols only", ["！？", "…"], ""],
  ])("%s", (_, names, slug) => {
    expect(slugFromNames(names, toPinyin)).toBe(slug);
  });

  it("without a converter, Chinese gives nothing (the browser before pinyin loads)", () => {
    expect(slugFromNames(["旅行"])).toBe("");
    expect(slugFromNames(["旅行", "Travel"])).toBe("travel");
  });
});

describe("shortSlug", () => {
  it("is a valid slug of ten characters", () => {
    expect(shortSlug("0a1b2c3d4e5f6g7h8j9k")).toBe("t-0a1b2c3d");
  });
});
