import { describe, expect, it } from "vitest";
import { csvCell, parseCsv, toCsv } from "./csv.ts";

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

describe("parseCsv", () => {
  it("reads BOM, CRLF, LF and lone CR line ends, skipping blank lines", () => {
    expect(parseCsv("\uFEFFa,b\r\nc,d\n\ne,f\rg,h")).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ["a", "b"] },
        { line: 2, fields: ["c", "d"] },
        { line: 4, fields: ["e", "f"] },
        { line: 5, fields: ["g", "h"] },
      ],
    });
  });

  it("reads quoted fields with commas, doubled quotes and line breaks, keeping start lines", () => {
    expect(parseCsv('"x,1","say ""hi"""\r\n"two\r\nlines",2\r\nlast,3\r\n')).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ["x,1", 'say "hi"'] },
        { line: 2, fields: ["two\r\nlines", "2"] },
        { line: 4, fields: ["last", "3"] },
      ],
    });
  });

  it("keeps empty cells and an empty quoted record", () => {
    expect(parseCsv('a,,\n""\n')).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ["a", "", ""] },
        { line: 2, fields: [""] },
      ],
    });
  });

  it("reports an unterminated quote with its line", () => {
    expect(parseCsv('a,b\n"c,d\n')).toEqual({ ok: false, code: "csv.unterminatedQuote", line: 2 });
  });

  it("reads back what toCsv writes", () => {
    const rows = [
      ["a,b", 'q"t', "multi\nline"],
      ["plain", "", "x"],
    ];
    const parsed = parseCsv(toCsv(rows));
    expect(parsed.ok && parsed.records.map((r) => r.fields)).toEqual(rows);
  });
});
