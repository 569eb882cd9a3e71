/**
 * Recipient lists (`address,amount` per line) for batch transfers: every row validated before
 * anything is signed, each problem reported by line with a code the page translates.
 */
import type { Address } from "@solana/kit";
import { parseCsv } from "../csv.ts";
import { type AddressErrorCode, isOffCurve, knownAddress, parseAddress } from "./address.ts";
import { type AmountErrorCode, parseAmount } from "./amount.ts";

export type RowErrorCode =
  | AddressErrorCode
  | AmountErrorCode
  | "row.missingAmount"
  | "row.extraColumns"
  | "row.sender"
  | "row.mint"
  | "row.program";

/** Not errors: the page asks the user to confirm them explicitly. */
export type RowWarningCode = "row.duplicate" | "row.offCurve";

export type FileErrorCode = "csv.empty" | "csv.unterminatedQuote" | "csv.tooManyRows";

export interface RecipientRow {
  /** Position among data rows, from 0: the row index used by plans and jobs. */
  index: number;
  /** 1-based line in the pasted or uploaded text (the header counts). */
  line: number;
  rawAddress: string;
  rawAmount: string;
  /** Set when the address is valid, even if the row has other errors. */
  address: Address | null;
  /** Base units; set when the amount is valid. */
  amount: bigint | null;
  errors: RowErrorCode[];
  warnings: RowWarningCode[];
  /** Lines of the other rows paying the same address. */
  duplicateLines: number[];
}

export interface RecipientsParseResult {
  rows: RecipientRow[];
  /** The first record when it was taken as a header (shown to the user, not paid). */
  header: string[] | null;
  fileError: { code: FileErrorCode; line?: number } | null;
  /** True when there is at least one row, no file error and no row error (warnings allowed). */
  ok: boolean;
}

export interface RecipientsOptions {
  /** Decimals of the asset: 9 for SOL, the mint's for a token. */
  decimals: number;
  /** The paying wallet: never a recipient. */
  sender?: Address | null;
  /** The token being sent: never a recipient. */
  mint?: Address | null;
  /** More addresses to refuse as programs, e.g. accounts the RPC reported as executable. */
  programAddresses?: ReadonlySet<string>;
  maxRows?: number;
}

export const DEFAULT_MAX_ROWS = 10_000;

const HAS_DIGIT = /\p{Nd}/u;

function isHeader(fields: string[]): boolean {
  const [first = "", second = ""] = fields;
  return !parseAddress(first).ok && !HAS_DIGIT.test(second);
}

/**
 * Parses and validates recipients. The first record is a header when its first cell is not an
 * address and its second holds no digit (`address,amount`, `钱包,数量`); it is returned so the page
 * can show what was skipped. Trailing empty cells are ignored; a third non-empty cell is an error.
 */
export function parseRecipientsCsv(text: string, options: RecipientsOptions): RecipientsParseResult {
  const parsed = parseCsv(text);
  if (!parsed.ok) return { rows: [], header: null, fileError: { code: parsed.code, line: parsed.line }, ok: false };
  let records = parsed.records;
  let header: string[] | null = null;
  const first = records[0];
  if (first && isHeader(first.fields)) {
    header = first.fields;
    records = records.slice(1);
  }
  if (records.length === 0) return { rows: [], header, fileError: { code: "csv.empty" }, ok: false };
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  if (records.length > maxRows) {
    return { rows: [], header, fileError: { code: "csv.tooManyRows", line: records[maxRows]?.line }, ok: false };
  }

  const rows = records.map((record, index): RecipientRow => {
    const fields = [...record.fields];
    while (fields.length > 2 && fields[fields.length - 1]?.trim() === "") fields.pop();
    const [rawAddress = "", rawAmount = ""] = fields;
    const errors: RowErrorCode[] = [];
    const warnings: RowWarningCode[] = [];
    if (fields.length > 2) errors.push("row.extraColumns");

    const addressResult = parseAddress(rawAddress);
    const address = addressResult.ok ? addressResult.address : null;
    if (!addressResult.ok) errors.push(addressResult.code);
    if (address) {
      if (options.sender && address === options.sender) errors.push("row.sender");
      else if (options.mint && address === options.mint) errors.push("row.mint");
      else if (knownAddress(address) || options.programAddresses?.has(address)) errors.push("row.program");
      else if (isOffCurve(address)) warnings.push("row.offCurve");
    }

    let amount: bigint | null = null;
    if (fields.length < 2) {
      errors.push("row.missingAmount");
    } else {
      const amountResult = parseAmount(rawAmount, options.decimals);
      if (amountResult.ok) amount = amountResult.value;
      else errors.push(amountResult.code);
    }
    return { index, line: record.line, rawAddress, rawAmount, address, amount, errors, warnings, duplicateLines: [] };
  });

  const linesByAddress = new Map<string, number[]>();
  for (const row of rows) {
    if (!row.address) continue;
    const lines = linesByAddress.get(row.address) ?? [];
    lines.push(row.line);
    linesByAddress.set(row.address, lines);
  }
  for (const row of rows) {
    const lines = row.address ? linesByAddress.get(row.address) : undefined;
    if (lines && lines.length > 1) {
      row.duplicateLines = lines.filter((line) => line !== row.line);
      row.warnings.push("row.duplicate");
    }
  }

  return { rows, header, fileError: null, ok: rows.every((row) => row.errors.length === 0) };
}

/** Rows ready to plan: valid address and amount. Call only when `ok` (and warnings are confirmed). */
export function payableRows(result: RecipientsParseResult): { index: number; address: Address; amount: bigint }[] {
  const out: { index: number; address: Address; amount: bigint }[] = [];
  for (const row of result.rows) {
    if (row.errors.length === 0 && row.address && row.amount !== null) {
      out.push({ index: row.index, address: row.address, amount: row.amount });
    }
  }
  return out;
}
