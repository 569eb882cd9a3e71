/**
 * Decimal amounts as typed by people, to integer base units (lamports, token base units) and back.
 * Only bigint arithmetic on the digits: a float never touches an amount.
 */

export const U64_MAX = 18_446_744_073_709_551_615n;

/** Largest `decimals` a mint can declare (the field is a u8). */
export const MAX_DECIMALS = 255;

export type AmountErrorCode =
  | "amount.empty"
  | "amount.negative"
  | "amount.plusSign"
  | "amount.exponent"
  | "amount.groupSeparator"
  | "amount.nonAsciiDigit"
  | "amount.innerSpace"
  | "amount.format"
  | "amount.zero"
  | "amount.tooManyDecimals"
  | "amount.tooLarge";

export type AmountResult = { ok: true; value: bigint } | { ok: false; code: AmountErrorCode };

// Leading and trailing blanks are trimmed (CSV cells often carry them); anything inside is refused.
const OUTER_BLANKS = /^[ \t]+|[ \t]+$/g;
const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;

function fail(code: AmountErrorCode): AmountResult {
  return { ok: false, code };
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_DECIMALS}`);
  }
}

/**
 * Parses a positive decimal string (`"1.5"`, `"0.000000001"`, `"42"`) into base units for a mint
 * with `decimals` decimals. Refused, each with its own code: empty, signs, exponents, group
 * separators (`1,000`), non-ASCII digits (full-width), blanks inside, a dot without digits on both
 * sides, zero, more significant decimals than the mint has, and values above u64.
 * Trailing zeros past `decimals` are accepted (`"1.50"` with 1 decimal is 15): the value is exact.
 */
export function parseAmount(input: string, decimals: number): AmountResult {
  assertDecimals(decimals);
  const text = input.replace(OUTER_BLANKS, "");
  if (text === "") return fail("amount.empty");
  if (text.startsWith("-") || text.startsWith("\u2212")) return fail("amount.negative");
  if (text.startsWith("+")) return fail("amount.plusSign");
  if (/\p{Nd}/u.test(text.replace(/[0-9]/g, ""))) return fail("amount.nonAsciiDigit");
  if (/\s/u.test(text)) return fail("amount.innerSpace");
  if (/^[0-9.]*[eE][+-]?[0-9]*$/.test(text)) return fail("amount.exponent");
  if (/^[0-9]+([,'_\u00a0\u202f][0-9]+)+(\.[0-9]+)?$/.test(text)) return fail("amount.groupSeparator");
  const match = DECIMAL.exec(text);
  if (!match) return fail("amount.format");
  const whole = match[1] ?? "";
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) return fail("amount.tooManyDecimals");
  const value = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  if (value === 0n) return fail("amount.zero");
  if (value > U64_MAX) return fail("amount.tooLarge");
  return { ok: true, value };
}

/**
 * Formats base units as a plain decimal string: no exponent, no grouping, no trailing zeros in the
 * fraction (`1500000000n, 9` gives `"1.5"`). `parseAmount(formatAmount(v, d), d)` gives `v` back.
 */
export function formatAmount(value: bigint, decimals: number): string {
  assertDecimals(decimals);
  if (value < 0n) throw new RangeError("amount must not be negative");
  if (decimals === 0) return value.toString();
  const digits = value.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

export const SOL_DECIMALS = 9;
