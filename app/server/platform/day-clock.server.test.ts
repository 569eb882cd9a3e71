import { describe, expect, it } from "vitest";
import { dayClock } from "./day-clock.server.ts";

describe("dayClock", () => {
  it("follows the clock across midnight UTC, both ways", () => {
    let at = Date.parse("2026-11-27T23:59:59.999Z");
    const today = dayClock(() => new Date(at));
    expect(today()).toBe("2026-11-27");
    at += 1;
    expect(today()).toBe("2026-11-28");
    at = Date.parse("2026-11-28T12:00:00.000Z");
    expect(today()).toBe("2026-11-28");
    // A clock set back (NTP) is followed too.
    at = Date.parse("2026-11-26T08:00:00.000Z");
    expect(today()).toBe("2026-11-26");
  });
});
