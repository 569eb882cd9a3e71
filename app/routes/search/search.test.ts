import { describe, expect, it } from "vitest";
import { parseSearchPage } from "./search.tsx";

describe("parseSearchPage", () => {
  it.each([
    [null, 1],
    ["", 1],
    ["1", 1],
    ["42", 42],
    ["0", null],
    ["-1", null],
    ["01", null],
    ["1.5", null],
    ["1e9", null],
    [" 2", null],
    ["abc", null],
    ["9999999999", null],
    ["999999999", 999999999],
  ])("%s → %s", (raw, expected) => expect(parseSearchPage(raw)).toBe(expected));
});
