import { describe, expect, it } from "vitest";
import { decideReload, parseReloadRecord, RELOAD_GUARD_MS } from "./reload-guard.ts";

const T = 1_800_000_000_000;

describe("reload guard", () => {
  it("allows one reload per path within 10 seconds", () => {
    expect(RELOAD_GUARD_MS).toBe(10_000);
    const first = decideReload({}, "/posts", T);
    expect(first).toEqual({ allowed: true, record: { "/posts": T } });
    expect(decideReload(first.record, "/posts", T + 1).allowed).toBe(false);
    expect(decideReload(first.record, "/posts", T + 9_999).allowed).toBe(false);
  });

  it("allows it again once 10 seconds have passed", () => {
    const { record } = decideReload({}, "/posts", T);
    const later = decideReload(record, "/posts", T + 10_000);
    expect(later).toEqual({ allowed: true, record: { "/posts": T + 10_000 } });
  });

  it("counts each path on its own and drops old entries", () => {
    const { record } = decideReload({ "/old": T - 60_000 }, "/a", T);
    expect(record).toEqual({ "/a": T });
    expect(decideReload(record, "/b", T + 1)).toEqual({ allowed: true, record: { "/a": T, "/b": T + 1 } });
  });

  it("does not trust entries from the future (a changed clock)", () => {
    expect(decideReload({ "/a": T + 60_000 }, "/a", T).allowed).toBe(true);
  });

  it("reads malformed storage as empty", () => {
    expect(parseReloadRecord(null)).toEqual({});
    expect(parseReloadRecord("not json")).toEqual({});
    expect(parseReloadRecord("[1,2]")).toEqual({});
    expect(parseReloadRecord('{"/a":1,"/b":"x"}')).toEqual({ "/a": 1 });
  });
});
