import { describe, expect, it } from "vitest";
import { checkDisplayName, cleanDisplayName, DISPLAY_NAME_MAX } from "./display-name.ts";

describe("checkDisplayName", () => {
  it("trims and keeps ordinary names in any script, emoji sequences included", () => {
    expect(checkDisplayName("  Ada Lovelace ")).toEqual({ ok: true, name: "Ada Lovelace" });
    expect(checkDisplayName("王小明")).toEqual({ ok: true, name: "王小明" });
    expect(checkDisplayName("👩‍💻 dev")).toEqual({ ok: true, name: "👩‍💻 dev" });
    expect(checkDisplayName("x".repeat(DISPLAY_NAME_MAX))).toMatchObject({ ok: true });
    expect(checkDisplayName("中".repeat(DISPLAY_NAME_MAX))).toMatchObject({ ok: true });
  });

  it("refuses empty, long, and text-reordering or control characters", () => {
    expect(checkDisplayName("   ")).toEqual({ ok: false, problem: "required" });
    expect(checkDisplayName(undefined)).toEqual({ ok: false, problem: "required" });
    expect(checkDisplayName("x".repeat(DISPLAY_NAME_MAX + 1))).toEqual({ ok: false, problem: "tooLong" });
    expect(checkDisplayName("x".repeat(900_000))).toEqual({ ok: false, problem: "tooLong" });
    for (const bad of [
      "evil\u202Egpj.exe",
      "a\u2066b",
      "a\u200Fb",
      "line\nbreak",
      "bell\u0007",
      "a\u2028b",
      "a\uFEFFb",
    ]) {
      expect(checkDisplayName(bad), JSON.stringify(bad)).toEqual({ ok: false, problem: "invalid" });
    }
  });
});

describe("cleanDisplayName", () => {
  it("drops what a name may not hold and cuts it to length", () => {
    expect(cleanDisplayName(" evil\u202Egpj\n exe ")).toBe("evilgpj exe");
    expect([...cleanDisplayName("名".repeat(500))]).toHaveLength(DISPLAY_NAME_MAX);
  });
});
