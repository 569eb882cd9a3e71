import { describe, expect, it } from "vitest";
import { canonicalPath } from "./canonical-path.ts";

describe("canonicalPath", () => {
  it.each([
    ["/about/", "/about"],
    ["/zh/", "/zh"],
    ["/en/tags/react/", "/en/tags/react"],
    ["/contact//", "/contact"],
    ["/posts//detail/abc", "/posts/detail/abc"],
    ["//evil.example/", "/evil.example"],
    ["/posts/page/1", "/posts"],
    ["/zh/posts/page/1", "/zh/posts"],
    ["/en/posts/page/01/", "/en/posts"],
    ["/tags/css/page/1", "/tags/css"],
    ["/zh/categories/前端/page/1", "/zh/categories/前端"],
    ["/authors/ada/page/1", "/authors/ada"],
  ])("%s → %s", (path, expected) => expect(canonicalPath(path)).toBe(expected));

  it.each([
    "/",
    "/about",
    "/zh",
    "/posts",
    "/posts/page/2",
    "/posts/page/10",
    "/tags/css/page/11",
    "/api/auth/",
    "/posts/detail/page/1",
  ])("%s is the page's address already", (path) => expect(canonicalPath(path)).toBeNull());
});
