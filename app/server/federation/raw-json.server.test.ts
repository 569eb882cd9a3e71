import { describe, expect, it } from "vitest";
import { MAX_ACTIVITY_DEPTH, nestsDeeperThan, parseActivityBody } from "./raw-json.server.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("an inbox body's nesting, counted before it is parsed", () => {
  it("counts objects and arrays inside each other, and nothing inside strings", () => {
    expect(nestsDeeperThan(bytes(nested(3)), 3)).toBe(false);
    expect(nestsDeeperThan(bytes(nested(4)), 3)).toBe(true);
    expect(nestsDeeperThan(bytes("[[[[1]]]]"), 3)).toBe(true);
    expect(nestsDeeperThan(bytes('[{"a":[1]},{"b":[2]},{"c":[3]}]'), 3)).toBe(false);
    // Brackets and escaped quotes inside strings, and non-ASCII text, are not structure.
    expect(nestsDeeperThan(bytes(`{"a":"[[[[{{{{\\"[[[[","中文[":"{{{{"}`), 1)).toBe(false);
    expect(nestsDeeperThan(bytes(`{"a":"\\\\",  "b":[[1]]}`), 2)).toBe(true);
  });

  it("checks 8,000 levels without recursing (the check itself cannot overflow)", () => {
    const deep = bytes(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    expect(nestsDeeperThan(deep, 1_000_000)).toBe(false);
    expect(nestsDeeperThan(deep, MAX_ACTIVITY_DEPTH)).toBe(true);
  });

  it("parses a shallow object and refuses the rest with a reason", () => {
    expect(parseActivityBody(bytes('{"type":"Follow","actor":"https://a.example/u"}'))).toEqual({
      ok: true,
      value: { type: "Follow", actor: "https://a.example/u" },
    });
    expect(parseActivityBody(bytes(nested(8000)))).toEqual({ ok: false, reason: "too-deep" });
    expect(parseActivityBody(bytes(nested(MAX_ACTIVITY_DEPTH)))).toMatchObject({ ok: true });
    expect(parseActivityBody(bytes(nested(MAX_ACTIVITY_DEPTH + 1)))).toEqual({ ok: false, reason: "too-deep" });
    expect(parseActivityBody(bytes('{"type":'))).toEqual({ ok: false, reason: "not-json" });
    expect(parseActivityBody(bytes(""))).toEqual({ ok: false, reason: "not-json" });
    expect(parseActivityBody(bytes("[1]"))).toEqual({ ok: false, reason: "not-an-object" });
    expect(parseActivityBody(bytes("null"))).toEqual({ ok: false, reason: "not-an-object" });
  });
});
