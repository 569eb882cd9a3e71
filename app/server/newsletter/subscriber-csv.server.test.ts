import { describe, expect, it } from "vitest";
import { IMPORT_MAX_ROWS } from "../../lib/admin-users.ts";
import { IMPORT_MAX_PROBLEMS, readSubscriberCsv } from "./subscriber-csv.server.ts";

const NOW = new Date("2026-11-26T12:00:00.000Z");
const bytes = (text: string) => new TextEncoder().encode(text);
const read = (text: string, defaults: "en" | "zh" | "bothEn" | "bothZh" = "en") =>
  readSubscriberCsv(bytes(text), defaults, NOW);
function ok(text: string, defaults?: "en" | "zh" | "bothEn" | "bothZh") {
  const result = read(text, defaults);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
  return result;
}

// The columns of Ghost's members export (Settings → Members → Export).
const GHOST_HEADER =
  "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers";

describe("readSubscriberCsv", () => {
  it("reads Ghost's members export: skips the unsubscribed, keeps created_at", () => {
    const file = [
      GHOST_HEADER,
      '64f0a1,Ann@Example.test,"Ann, the first",,true,,,2023-01-15T10:20:30.000Z,,"VIP, Early",',
      "64f0a2,bob@example.test,Bob,,false,,,2023-02-01T00:00:00.000Z,,,",
      "64f0a3,cy@example.test,Cy,,true,,,not a date,,,",
    ].join("\r\n");
    const result = ok(file, "zh");
    expect(result.candidates).toEqual([
      { line: 2, email: "ann@example.test", languages: "zh", locale: "zh", createdAt: "2023-01-15T10:20:30.000Z" },
      { line: 4, email: "cy@example.test", languages: "zh", locale: "zh", createdAt: null },
    ]);
    expect(result).toMatchObject({ notSubscribed: 1, duplicates: 0, invalid: 0, problems: [] });
  });

  it("handles a BOM, CRLF, quoted commas, doubled quotes and line breaks inside quotes", () => {
    const file = `\uFEFFEmail,Name,Note\r\n"d@example.test","Dee ""D"" Smith","line one\r\nline two, still the note"\r\ne@example.test,E,x\r\n`;
    const result = ok(file);
    expect(result.candidates.map((c) => [c.line, c.email])).toEqual([
      [2, "d@example.test"],
      // The quoted line break moved the next record down a line.
      [4, "e@example.test"],
    ]);
  });

  it("finds columns by name in any case and order; blank rows are not counted", () => {
    const result = ok(
      "NAME,LANGUAGE,EMAIL\nA,zh,a@example.test\n,,\n\nB,,b@example.test\nC,Both,c@example.test\n",
      "bothEn",
    );
    expect(result.candidates.map((c) => [c.email, c.languages, c.locale])).toEqual([
      ["a@example.test", "zh", "zh"],
      ["b@example.test", "both", "en"],
      ["c@example.test", "both", "en"],
    ]);
  });

  it("reads our own export back: languages, with locale saying which of both comes first", () => {
    const file = [
      "email,status,locale,createdAt,confirmedAt,languages,bounceCount,bouncedAt",
      "a@example.test,confirmed,zh,2026-01-01T00:00:00.000Z,,both,0,",
      "b@example.test,confirmed,en,2026-01-01T00:00:00.000Z,,en,0,",
    ].join("\r\n");
    expect(ok(file, "en").candidates.map((c) => [c.email, c.languages, c.locale])).toEqual([
      ["a@example.test", "both", "zh"],
      ["b@example.test", "en", "en"],
    ]);
  });

  it("counts duplicates (case-folded) and invalid rows, naming the first problems by line", () => {
    const file = [
      "email,language",
      "a@example.test,en",
      "A@EXAMPLE.TEST ,en",
      "not-an-address,en",
      ",en",
      "b@example.test,fr",
      "c@example.test,中文",
    ].join("\n");
    const result = ok(file);
    expect(result.candidates.map((c) => [c.email, c.languages])).toEqual([
      ["a@example.test", "en"],
      ["c@example.test", "zh"],
    ]);
    expect(result).toMatchObject({ duplicates: 1, invalid: 3 });
    expect(result.problems).toEqual([
      { line: 4, reason: "emailInvalid", value: "not-an-address" },
      { line: 5, reason: "emailMissing", value: "" },
      { line: 6, reason: "languageUnknown", value: "fr" },
    ]);
  });

  it("names at most the first problems, but counts them all", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `bad${i}`);
    const result = ok(["email", ...rows].join("\n"));
    expect(result.invalid).toBe(30);
    expect(result.problems).toHaveLength(IMPORT_MAX_PROBLEMS);
    expect(result.problems[0]?.line).toBe(2);
  });

  it("keeps no created_at from the future", () => {
    expect(ok("email,created_at\na@example.test,2999-01-01T00:00:00Z").candidates[0]?.createdAt).toBeNull();
  });

  it("refuses files that are not a subscriber CSV, saying why", () => {
    expect(read("")).toEqual({ ok: false, error: { code: "empty" } });
    expect(read("a@example.test\nb@example.test")).toEqual({ ok: false, error: { code: "noEmailColumn" } });
    expect(read('{"email": "a@example.test"}')).toEqual({ ok: false, error: { code: "noEmailColumn" } });
    expect(read('email\n"a@example.test')).toEqual({ ok: false, error: { code: "unterminatedQuote", line: 2 } });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe]);
    expect(readSubscriberCsv(png, "en", NOW)).toEqual({ ok: false, error: { code: "notText" } });
    expect(readSubscriberCsv(bytes("email\n\0a"), "en", NOW)).toEqual({ ok: false, error: { code: "notText" } });
  });

  it(`refuses more than ${IMPORT_MAX_ROWS} rows`, () => {
    const lines = ["email"];
    for (let i = 0; i <= IMPORT_MAX_ROWS; i++) lines.push(`r${i}@example.test`);
    expect(read(lines.join("\n"))).toEqual({
      ok: false,
      error: { code: "tooManyRows", max: IMPORT_MAX_ROWS, rows: IMPORT_MAX_ROWS + 1 },
    });
    lines.pop();
    expect(ok(lines.join("\n")).candidates).toHaveLength(IMPORT_MAX_ROWS);
  });
});
