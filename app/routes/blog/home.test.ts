import { describe, expect, it } from "vitest";
import { parsePageParam } from "./home.tsx";

describe("parsePageParam", () => {
  it.each([
    [undefined, 1],
    ["1", 1],
    ["42", 42],
    ["0", null],
    ["-1", null],
    ["01", null],
    ["1.5", null],
    ["1e9", null],
    ["abc", null],
    ["9999999999", null],
    ["999999999", 999999999],
  ])("%s → %s", (raw, expected) => expect(parsePageParam(raw)).toBe(expected));
});
