import { describe, expect, it } from "vitest";
import {
  indexTokens,
  isHanToken,
  MAX_QUERY_TOKENS,
  MAX_TOKEN_LENGTH,
  normalize,
  queryTokens,
  segmentForIndex,
} from "./tokenize.server.ts";

describe("normalize", () => {
  it("lower-cases and folds compatibility forms (full-width letters and digits)", () => {
    expect(normalize("Ｈｅｌｌｏ ＷＯＲＬＤ １２３")).toBe("hello world 123");
  });
});

describe("indexTokens", () => {
  it("segments Chinese in search mode, so shorter words inside longer ones are indexed", () => {
    const tokens = indexTokens("我们在测试中文搜索功能");
    expect(tokens).toEqual(expect.arrayContaining(["我们", "测试", "中文", "搜索", "中文搜索", "功能"]));
  });

  it("keeps separated characters apart: 测 and 试 never become 测试", () => {
    expect(indexTokens("测 和 试")).toEqual(["测", "和", "试"]);
    expect(indexTokens("测验试卷")).not.toContain("测试");
  });

  it("splits other text into lower-case words of letters and digits", () => {
    expect(indexTokens("Hello, World! It's test_case #42 (50%) e-mail café")).toEqual([
      "hello",
      "world",
      "it",
      "s",
      "test",
      "case",
      "42",
      "50",
      "e",
      "mail",
      "café",
    ]);
  });

  it("separates Chinese from Latin letters written next to it", () => {
    expect(indexTokens("用React测试")).toEqual(["用", "react", "测试"]);
  });

  it("treats punctuation and query syntax as separators only", () => {
    expect(indexTokens(`' % _ " * - : OR NEAR( ) ^ {} [] +`)).toEqual(["or", "near"]);
    expect(indexTokens("，。！？、；：“”")).toEqual([]);
  });

  it("leaves out runs of combining marks that follow no letter", () => {
    expect(indexTokens("x \u0301\u0301 y")).toEqual(["x", "y"]);
  });

  it("leaves out runaway tokens", () => {
    expect(indexTokens(`a${"x".repeat(MAX_TOKEN_LENGTH)} ok`)).toEqual(["ok"]);
  });
});

describe("segmentForIndex", () => {
  it("joins the tokens with single spaces", () => {
    expect(segmentForIndex("  Hello   World  ")).toBe("hello world");
    expect(segmentForIndex("")).toBe("");
  });
});

describe("queryTokens", () => {
  it("uses jieba's precise mode for Chinese queries", () => {
    expect(queryTokens("测试")).toEqual(["测试"]);
    expect(queryTokens("中文搜索")).toEqual(["中文搜索"]);
  });

  it("dedupes, lower-cases, and ignores punctuation", () => {
    expect(queryTokens("Kysely kysely KYSELY!")).toEqual(["kysely"]);
    expect(queryTokens(`"'%_*`)).toEqual([]);
    expect(queryTokens("   ")).toEqual([]);
  });

  it("caps the query at 200 characters and 12 tokens", () => {
    const many = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
    expect(queryTokens(many)).toHaveLength(MAX_QUERY_TOKENS);
    expect(queryTokens(`${"a ".repeat(100)}tail`)).toEqual(["a"]);
  });
});

describe("isHanToken", () => {
  it("tells Chinese tokens from others", () => {
    expect(isHanToken("测试")).toBe(true);
    expect(isHanToken("test")).toBe(false);
  });
});
