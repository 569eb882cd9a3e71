import { describe, expect, it } from "vitest";
import { pathInLocale } from "./locale.tsx";

describe("pathInLocale", () => {
  it.each([
    ["/en/posts/page/2", "zh", "/zh/posts/page/2"],
    ["/zh", "en", "/en"],
    ["/zh/", "en", "/en"],
    ["/posts?x=1", "en", "/posts?x=1"],
    ["/english", "zh", "/english"],
  ] as const)("%s → %s gives %s", (path, locale, expected) => expect(pathInLocale(path, locale)).toBe(expected));
});
