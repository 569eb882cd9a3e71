import { describe, expect, it } from "vitest";
import { idOfSignedToken, signedIdMatches, signId } from "./signed-id.server.ts";

const SECRET = "a-test-secret-of-at-least-thirty-two-characters";

describe("signed ids", () => {
  it("accepts its own token and nothing that differs in purpose, id, bound value or any character", () => {
    const token = signId(SECRET, "p", "abc123", "h1");
    expect(idOfSignedToken(token)).toBe("abc123");
    expect(signedIdMatches(SECRET, "p", token, "abc123", "h1")).toBe(true);
    expect(signedIdMatches(SECRET, "q", token, "abc123", "h1")).toBe(false);
    expect(signedIdMatches(SECRET, "p", token, "abc123", "h2")).toBe(false);
    expect(signedIdMatches(`${SECRET}!`, "p", token, "abc123", "h1")).toBe(false);
    // Every one-character change of the MAC, the last one included (its spare bits decode the same).
    const mac = token.slice("abc123.".length);
    for (let i = 0; i < mac.length; i++) {
      for (const c of ["A", "B", "x", "-", "_"]) {
        if (mac[i] === c) continue;
        const changed = `abc123.${mac.slice(0, i)}${c}${mac.slice(i + 1)}`;
        expect(signedIdMatches(SECRET, "p", changed, "abc123", "h1"), changed).toBe(false);
      }
    }
  });

  it("refuses malformed tokens before any MAC is made", () => {
    for (const bad of ["", ".abc", "no-dot", `${"a".repeat(65)}.x`, "a b.c", `a.${"x".repeat(300)}`]) {
      expect(idOfSignedToken(bad), bad).toBeNull();
    }
  });
});
