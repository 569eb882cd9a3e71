import { describe, expect, it } from "vitest";
import { FORMATTED_DATES_MAX, formatDate, formatDateTime, formatShortDateTime } from "./format.ts";

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

  it("remembers formatted dates per language and date, and stays right past its bound", () => {
    expect(formatDate("2026-01-05T00:00:00.000Z", "en")).toBe("January 5, 2026");
    expect(formatDate("2026-01-05T00:00:00.000Z", "zh")).toBe("2026年1月5日");
    expect(formatDate("2026-01-05T00:00:00.000Z", "en")).toBe("January 5, 2026");
    expect(formatDate("2026-01-06T00:00:00.000Z", "en")).toBe("January 6, 2026");
    expect(formatDate("nope", "en")).toBe("");
    const day = (i: number) => new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString();
    for (let i = 0; i <= FORMATTED_DATES_MAX; i++) formatDate(day(i), "en");
    expect(formatDate(day(0), "en")).toBe("January 1, 2000");
    expect(formatDate(day(FORMATTED_DATES_MAX), "zh")).toBe(
      new Intl.DateTimeFormat("zh-CN", { dateStyle: "long", timeZone: "UTC" }).format(
        new Date(day(FORMATTED_DATES_MAX)),
      ),
    );
  });
});

describe("formatShortDateTime", () => {
  const now = new Date("2026-11-29T00:00:00.000Z");

  it("is short, 24-hour and without the zone, in both languages", () => {
    expect(formatShortDateTime("2026-11-28T14:05:00.000Z", "en", "UTC", now)).toBe("Nov 28, 14:05");
    expect(formatShortDateTime("2026-11-28T14:05:00.000Z", "zh", "UTC", now)).toBe("11月28日 14:05");
  });

  it("reads the moment in the given zone", () => {
    expect(formatShortDateTime("2026-11-28T20:05:00.000Z", "en", "Asia/Shanghai", now)).toBe("Nov 29, 04:05");
  });

  it("names the year only when it is not this year", () => {
    expect(formatShortDateTime("2025-03-01T08:00:00.000Z", "en", "UTC", now)).toBe("Mar 1, 2025, 08:00");
    expect(formatShortDateTime("2025-03-01T08:00:00.000Z", "zh", "UTC", now)).toBe("2025年3月1日 08:00");
  });

  it("falls back to UTC for an unknown zone and to nothing for a bad time", () => {
    expect(formatShortDateTime("2026-11-28T14:05:00.000Z", "en", "Mars/Olympus", now)).toBe("Nov 28, 14:05");
    expect(formatShortDateTime("not a time", "en", "UTC", now)).toBe("");
  });
});
