import { type Address, generateKeyPairSigner } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRecipientsCsv, payableRows } from "./csv.ts";

let a: Address;
let b: Address;
let sender: Address;
let mint: Address;
beforeAll(async () => {
  [a, b, sender, mint] = (await Promise.all(
    Array.from({ length: 4 }, async () => (await generateKeyPairSigner()).address),
  )) as [Address, Address, Address, Address];
});

describe("parseRecipientsCsv", () => {
  it("reads a header, BOM, CRLF and quoted fields, numbering rows by line", () => {
    const text = `\uFEFFaddress,amount\r\n${a},1.5\r\n"${b}","0.25"\r\n`;
    const result = parseRecipientsCsv(text, { decimals: 9, sender, mint });
    expect(result.ok).toBe(true);
    expect(result.header).toEqual(["address", "amount"]);
    expect(result.rows.map((r) => [r.index, r.line, r.address, r.amount])).toEqual([
      [0, 2, a, 1_500_000_000n],
      [1, 3, b, 250_000_000n],
    ]);
    expect(payableRows(result)).toEqual([
      { index: 0, address: a, amount: 1_500_000_000n },
      { index: 1, address: b, amount: 250_000_000n },
    ]);
  });

  it("takes a Chinese header as a header and a first data row as data", () => {
    expect(parseRecipientsCsv(`钱包地址,数量\n${a},1`, { decimals: 0 }).header).toEqual(["钱包地址", "数量"]);
    const noHeader = parseRecipientsCsv(`${a},1\n${b},2`, { decimals: 0 });
    expect(noHeader.header).toBeNull();
    expect(noHeader.rows).toHaveLength(2);
    // A broken first row with a number stays a row, with its error shown.
    const broken = parseRecipientsCsv(`not-an-address,5\n${b},2`, { decimals: 0 });
    expect(broken.header).toBeNull();
    expect(broken.rows[0]?.errors).toEqual(["address.notBase58"]);
  });

  it("lists every problem by line: address, sender, mint, program, amount, columns", () => {
    const text = [
      "address,amount",
      `${a},1`,
      `${a.slice(0, -2)},1`,
      `${sender},1`,
      `${mint},1`,
      "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA,1",
      "SysvarRent111111111111111111111111111111111,1",
      `${b},1e3`,
      `${b},0`,
      `${b},1.1234567`,
      `${b}`,
      `${b},1,memo`,
      `${b},1,,`,
    ].join("\n");
    const result = parseRecipientsCsv(text, { decimals: 6, sender, mint });
    expect(result.ok).toBe(false);
    expect(result.rows.map((r) => [r.line, r.errors])).toEqual([
      [2, []],
      [3, ["address.wrongLength"]],
      [4, ["row.sender"]],
      [5, ["row.mint"]],
      [6, ["row.program"]],
      [7, ["row.program"]],
      [8, ["amount.exponent"]],
      [9, ["amount.zero"]],
      [10, ["amount.tooManyDecimals"]],
      [11, ["row.missingAmount"]],
      [12, ["row.extraColumns"]],
      [13, []],
    ]);
  });

  it("refuses addresses the page found to be programs", () => {
    const result = parseRecipientsCsv(`${a},1`, { decimals: 0, programAddresses: new Set([a]) });
    expect(result.rows[0]?.errors).toEqual(["row.program"]);
  });

  it("flags duplicates and off-curve recipients as warnings, not errors", async () => {
    const [ata] = await findAssociatedTokenPda({ owner: a, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const result = parseRecipientsCsv(`${a},1\n${b},2\n${a},3\n${ata},4`, { decimals: 0 });
    expect(result.ok).toBe(true);
    expect(result.rows.map((r) => [r.line, r.warnings, r.duplicateLines])).toEqual([
      [1, ["row.duplicate"], [3]],
      [2, [], []],
      [3, ["row.duplicate"], [1]],
      [4, ["row.offCurve"], []],
    ]);
  });

  it("reports file-level problems", () => {
    expect(parseRecipientsCsv("", { decimals: 0 }).fileError).toEqual({ code: "csv.empty" });
    expect(parseRecipientsCsv("address,amount\r\n", { decimals: 0 }).fileError).toEqual({ code: "csv.empty" });
    expect(parseRecipientsCsv(`"${a},1`, { decimals: 0 }).fileError).toEqual({
      code: "csv.unterminatedQuote",
      line: 1,
    });
    const many = parseRecipientsCsv(`${a},1\n${b},1\n${a},1`, { decimals: 0, maxRows: 2 });
    expect(many.fileError).toEqual({ code: "csv.tooManyRows", line: 3 });
    expect(many.ok).toBe(false);
  });
});
