import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./session.server.ts";

describe("safeRedirectPath", () => {
  it.each([
    "//evil.example",
    "//evil.example/path",
    "/\\evil.example",
    "/%5cevil.example",
    "/%5Cevil.example",
    "/%2f%2fevil.example",
    "/%2F/evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "/javascript:alert(1)",
    "https://evil.example",
    "http:evil.example",
    "evil.example",
    "/\tevil",
    "/%0d%0aSet-Cookie:x=1",
    "/%E0%A4%A",
    "/a%E2%80%A8b",
    "/a%00b",
    "/a%0Cb",
    "/a\u2028b",
    "/a\u0000b",
    "",
  ])("refuses %j", (target) => {
    expect(safeRedirectPath(target)).toBe("/");
  });

  it("percent-encodes what a Location header cannot carry, keeping what is encoded already", () => {
    expect(safeRedirectPath("/tags/中文")).toBe("/tags/%E4%B8%AD%E6%96%87");
    expect(safeRedirectPath("/tags/%E4%B8%AD%E6%96%87")).toBe("/tags/%E4%B8%AD%E6%96%87");
    expect(safeRedirectPath("/search?q=a b")).toBe("/search?q=a%20b");
    expect(safeRedirectPath("/a\uD800b")).toBe("/");
  });

  it("uses the fallback for a missing target", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined, "/posts")).toBe("/posts");
    expect(safeRedirectPath("//evil.example", "/posts")).toBe("/posts");
  });

  it.each(["/", "/posts", "/posts?page=2&tag=a%20b", "/zh/login#top", "/search?q=a:b"])(
    "keeps the same-origin path %j",
    (target) => {
      expect(safeRedirectPath(target)).toBe(target);
    },
  );

  it("never yields a target that leaves the origin", () => {
    const base = "https://blog.example/";
    for (const target of ["/%5c%5cevil.example", "/.//evil.example", "/%09/evil.example", "///evil.example"]) {
      expect(new URL(safeRedirectPath(target), base).origin).toBe("https://blog.example");
    }
  });
});
