import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "./format.ts";

describe("formatDate / formatDateTime", () => {
  it("formats in UTC in each language", () => {
    expect(formatDate("2026-11-22T23:30:00.000Z", "en")).toBe("November 22, 2026");
    expect(formatDate("2026-11-22T23:30:00.000Z", "zh")).toBe("2026年11月22日");
    expect(formatDateTime("2026-11-22T23:30:00.000Z", "en")).toMatch(/^Nov 22, 2026, 11:30\sPM UTC$/);
    expect(formatDateTime("2026-11-22T23:30:00.000Z", "zh")).toContain("23:30 UTC");
  });

  it("gives an empty string for a bad date", () => {
    expect(formatDate("nope", "en")).toBe("");
    expect(formatDateTime("nope", "zh")).toBe("");
  });
});
