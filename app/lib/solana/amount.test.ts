import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAmount, parseAmount, U64_MAX } from "./amount.ts";

describe("parseAmount", () => {
  it.each([
    ["1", 9, 1_000_000_000n],
    ["1.5", 9, 1_500_000_000n],
    ["0.000000001", 9, 1n],
    ["42", 0, 42n],
    ["007.25", 2, 725n],
    [" 3.5\t", 1, 35n],
    ["1.50", 1, 15n],
    ["18446744073709551615", 0, U64_MAX],
    ["18446744073.709551615", 9, U64_MAX],
  ])("reads %j with %i decimals as %s", (text, decimals, value) => {
    expect(parseAmount(text, decimals)).toEqual({ ok: true, value });
  });

  it.each([
    ["", "amount.empty"],
    ["   ", "amount.empty"],
    ["1e3", "amount.exponent"],
    ["1E-3", "amount.exponent"],
    ["1.5e2", "amount.exponent"],
    ["-1", "amount.negative"],
    ["\u22121", "amount.negative"],
    ["+1", "amount.plusSign"],
    ["0", "amount.zero"],
    ["0.000", "amount.zero"],
    ["1,000", "amount.groupSeparator"],
    ["1,000.5", "amount.groupSeparator"],
    ["1_000", "amount.groupSeparator"],
    ["１２３", "amount.nonAsciiDigit"],
    ["1٢", "amount.nonAsciiDigit"],
    ["1 000", "amount.innerSpace"],
    ["1\u00a0000", "amount.innerSpace"],
    [".5", "amount.format"],
    ["5.", "amount.format"],
    ["1.2.3", "amount.format"],
    ["0x10", "amount.format"],
    ["NaN", "amount.format"],
    ["Infinity", "amount.format"],
    ["1,5", "amount.groupSeparator"],
    ["0.0000000001", "amount.tooManyDecimals"],
    ["18446744073709551616", "amount.tooLarge"],
    ["18446744073.709551616", "amount.tooLarge"],
  ])("refuses %j as %s", (text, code) => {
    expect(parseAmount(text, 9)).toEqual({ ok: false, code });
  });

  it("refuses decimals beyond a mint's precision, including for 0-decimal mints", () => {
    expect(parseAmount("1.5", 0)).toEqual({ ok: false, code: "amount.tooManyDecimals" });
    expect(parseAmount("1.001", 2)).toEqual({ ok: false, code: "amount.tooManyDecimals" });
  });

  it("rejects an invalid decimals argument", () => {
    expect(() => parseAmount("1", -1)).toThrow(RangeError);
    expect(() => parseAmount("1", 1.5)).toThrow(RangeError);
  });
});

describe("formatAmount", () => {
  it.each([
    [1_500_000_000n, 9, "1.5"],
    [1n, 9, "0.000000001"],
    [0n, 6, "0"],
    [42n, 0, "42"],
    [U64_MAX, 9, "18446744073.709551615"],
  ])("formats %s with %i decimals as %j", (value, decimals, text) => {
    expect(formatAmount(value, decimals)).toBe(text);
  });
});

describe("properties", () => {
  const decimalsArb = fc.integer({ min: 0, max: 19 });
  const valueArb = fc.bigInt({ min: 1n, max: U64_MAX });

  it("round-trips every u64 value through format and parse", () => {
    fc.assert(
      fc.property(valueArb, decimalsArb, (value, decimals) => {
        expect(parseAmount(formatAmount(value, decimals), decimals)).toEqual({ ok: true, value });
      }),
    );
  });

  it("formats every accepted string back to the same number", () => {
    const textArb = fc
      .tuple(fc.stringMatching(/^[0-9]{1,10}$/), fc.option(fc.stringMatching(/^[0-9]{1,9}$/)))
      .map(([whole, fraction]) => (fraction === null ? whole : `${whole}.${fraction}`));
    fc.assert(
      fc.property(textArb, (text) => {
        const result = parseAmount(text, 9);
        if (!result.ok) {
          expect(result.code).toBe("amount.zero");
          return;
        }
        expect(formatAmount(result.value, 9)).toBe(
          text
            .replace(/^0+(?=\d)/, "")
            .replace(/(\.\d*?)0+$/, "$1")
            .replace(/\.$/, ""),
        );
      }),
    );
  });

  it("refuses anything above u64 and any value with more decimals than allowed", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: U64_MAX + 1n, max: U64_MAX * 1000n }), (value) => {
        expect(parseAmount(value.toString(), 0)).toEqual({ ok: false, code: "amount.tooLarge" });
      }),
    );
    fc.assert(
      fc.property(valueArb, fc.integer({ min: 0, max: 8 }), (value, decimals) => {
        // A value in base units of one more decimal than the mint has, with a non-zero last digit.
        const finer = value * 10n + 7n;
        expect(parseAmount(formatAmount(finer, decimals + 1), decimals)).toEqual({
          ok: false,
          code: "amount.tooManyDecimals",
        });
      }),
    );
  });

  it("refuses strings with signs, exponents, separators or non-ASCII digits", () => {
    const digits = fc.stringMatching(/^[1-9][0-9]{0,6}$/);
    const bad = fc.oneof(
      digits.map((d) => `-${d}`),
      digits.map((d) => `+${d}`),
      fc.tuple(digits, digits).map(([a, b]) => `${a}e${b}`),
      fc.tuple(digits, fc.stringMatching(/^[0-9]{3}$/)).map(([a, b]) => `${a},${b}`),
      digits.map((d) => d.replace(/[0-9]/g, (c) => String.fromCharCode(0xff10 + Number(c)))),
      fc.tuple(digits, digits).map(([a, b]) => `${a} ${b}`),
    );
    fc.assert(
      fc.property(bad, (text) => {
        expect(parseAmount(text, 9).ok).toBe(false);
      }),
    );
  });
});
