import { describe, expect, it } from "vitest";
import { assertSafeKey, assertSafePrefix, isSafeKey, MAX_KEY_LENGTH } from "./keys.server.ts";
import { StorageError } from "./types.server.ts";

const refused = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof StorageError ? error.code : "other";
  }
};

describe("assertSafeKey", () => {
  it("accepts server-generated keys", () => {
    for (const key of ["a", "ab/abcdef0123/640.webp", "x/y_z-1.2.jpg", "0", `${"a".repeat(100)}/b`]) {
      expect(refused(() => assertSafeKey(key))).toBeNull();
    }
  });

  it("refuses traversal, odd characters, bad segments and long keys with invalid-url", () => {
    const hostile = [
      "",
      "../../x",
      "..",
      "a/../b",
      "a..b",
      "..\\x",
      "a\\b",
      "%2e%2e%2f",
      "a.png\0.html",
      "/abs",
      "a/",
      "a//b",
      ".hidden",
      "a/.tmp/b",
      "-a",
      "A.png",
      "a b",
      "é",
      "a".repeat(101),
      `${"a/".repeat(150)}a`.slice(0, MAX_KEY_LENGTH + 1),
    ];
    for (const key of hostile) {
      expect({ key, code: refused(() => assertSafeKey(key)) }).toEqual({ key, code: "invalid-url" });
    }
    expect(isSafeKey(42)).toBe(false);
  });

  it("holds the length limit at exactly 300 characters", () => {
    const key300 = `${"a".repeat(99)}/${"b".repeat(100)}/${"c".repeat(99)}`;
    expect(key300).toHaveLength(300);
    expect(isSafeKey(key300)).toBe(true);
    expect(isSafeKey(`${key300}c`)).toBe(false);
  });
});

describe("assertSafePrefix", () => {
  it("accepts the empty prefix and any start of a valid key", () => {
    for (const prefix of ["", "a", "ab/", "ab/cd", "ab/cd/6"]) {
      expect(refused(() => assertSafePrefix(prefix))).toBeNull();
    }
  });

  it("refuses prefixes that no valid key starts with", () => {
    for (const prefix of ["/", "../", "a//", "A", "a/..", "%2e"]) {
      expect(refused(() => assertSafePrefix(prefix))).toBe("invalid-url");
    }
  });
});
