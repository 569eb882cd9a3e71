import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv.ts";

describe("csvCell", () => {
  it("leaves plain values alone", () => {
    expect(csvCell("reader@example.com")).toBe("reader@example.com");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\rhere")).toBe('"cr\rhere"');
  });

  it.each(["=1+1", "+cmd", "-2", "@SUM(A1)", "\tx"])("guards %j against formula injection", (value) => {
    expect(csvCell(value)).toBe(`'${value}`);
  });

  it("guards and quotes together", () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell("\rx")).toBe(`"'\rx"`);
  });

  it("does not guard a sign inside a value", () => {
    expect(csvCell("a=b+c@d-e")).toBe("a=b+c@d-e");
  });
});

describe("toCsv", () => {
  it("joins rows with CRLF and ends with one", () => {
    expect(
      toCsv([
        ["email", "status"],
        ["=x@example.com", "pending"],
      ]),
    ).toBe("email,status\r\n'=x@example.com,pending\r\n");
    expect(toCsv([])).toBe("");
  });
});
