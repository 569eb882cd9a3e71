import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "./format.ts";

describe("formatDate / formatDateTime", () => {
  it("formats in UTC in each language", () => {
    expect(formatDate("2026-11-22T23:30:00.000Z", "en")).toBe("November 22, 2026");
    expect(formatDate("2026-11-22T23:30:00.000Z", "zh")).toBe("2026年11月22日");
    expect(formatDateTime("2026-11-22T23:30:00.000Z", "en")).toMatch(/^Nov 22, 2026, 11:30\sPM UTC$/);
    expect(formatDateTime("2026-11-22T23:30:00.000Z", "zh")).toBe("2026年11月22日 UTC 23:30");
  });

  it("formats in a given zone with the zone named (the browser's, in LocalTime)", () => {
    expect(formatDateTime("2026-11-22T23:30:00.000Z", "en", "America/New_York")).toMatch(
      /^Nov 22, 2026, 6:30\sPM EST$/,
    );
    expect(formatDateTime("2026-07-01T16:00:00.000Z", "en", "America/New_York")).toMatch(/12:00\sPM EDT$/);
    expect(formatDateTime("2026-11-22T23:30:00.000Z", "zh", "Asia/Shanghai")).toBe("2026年11月23日 GMT+8 07:30");
    // An unknown zone falls back to UTC rather than throwing during render.
    expect(formatDateTime("2026-11-22T23:30:00.000Z", "en", "Mars/Olympus")).toMatch(/11:30\sPM UTC$/);
  });

  it("gives an empty string for a bad date", () => {
    expect(formatDate("nope", "en")).toBe("");
    expect(formatDateTime("nope", "zh")).toBe("");
  });
});
