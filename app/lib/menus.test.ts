import { describe, expect, it } from "vitest";
import { HEADER_MAX_INLINE, headerInlineCount, isMenuAddress, type ResolvedMenuItem } from "./menus.ts";

const items = (...labels: string[]): ResolvedMenuItem[] =>
  labels.map((label, i) => ({ href: `/p${i}`, label, external: false }));

describe("headerInlineCount", () => {
  it("shows a short menu whole: today's Home and All blogs, in both languages", () => {
    expect(headerInlineCount(items("Home", "All blogs"))).toBe(2);
    expect(headerInlineCount(items("首页", "全部博客"))).toBe(2);
    expect(headerInlineCount(items("Home", "All blogs", "About", "Now", "Uses"))).toBe(5);
  });

  it("puts what does not fit one row into More, leaving room for it", () => {
    const many = items("Home", "All blogs", "Photography", "Travel notes", "Recipes", "About me", "Contact");
    const shown = headerInlineCount(many);
    expect(shown).toBeGreaterThan(1);
    expect(shown).toBeLessThan(many.length);
    expect(headerInlineCount(items("a", "b", "c", "d", "e", "f", "g", "h"))).toBe(HEADER_MAX_INLINE - 1);
  });

  it("counts Chinese characters as wide", () => {
    // Six four-character labels: Latin ones fit the row, Han ones (twice as wide) do not.
    const en = items("Work", "Blog", "Code", "Talk", "Food", "Home");
    const zh = items("摄影作品", "旅行笔记", "家常菜谱", "读书笔记", "关于我们", "联系方式");
    expect(headerInlineCount(en)).toBe(6);
    expect(headerInlineCount(zh)).toBeLessThan(6);
  });
});

describe("isMenuAddress", () => {
  it("takes a path on the site or an http(s) address, nothing else", () => {
    for (const ok of ["/now", "/categories/bread?x=1", "https://example.com/", "http://example.com/a"]) {
      expect(isMenuAddress(ok), ok).toBe(true);
    }
    for (const bad of [
      "",
      "//evil.example",
      "javascript:alert(1)",
      "https://user:pw@example.com/",
      "now",
      "/a b",
      "/\\evil",
    ]) {
      expect(isMenuAddress(bad), bad).toBe(false);
    }
  });
});
