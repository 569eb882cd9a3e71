import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import {
  balanceProblems,
  LAMPORTS_PER_SIGNATURE,
  mintIssues,
  planTransfers,
  RENT_EXEMPT_MINIMUM_EMPTY,
  rowsBelowRentExemption,
  TOKEN_PROGRAM_ADDRESS,
  type TransferAsset,
  transferCost,
} from "./transfer-plan.ts";

const sender = "Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u3Ggs" as Address;
const a = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" as Address;
const b = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T" as Address;
const sol: TransferAsset = { kind: "sol" };

describe("transferCost", () => {
  it("adds base fees, priority fees rounded up, rent for new accounts and, for SOL, the amounts", () => {
    const rows = [
      { index: 0, address: a, amount: 1_000_000n },
      { index: 1, address: b, amount: 2_000_000n },
    ];
    const budget = { unitLimit: 10_001, unitPrice: 3n };
    const plan = planTransfers({ sender, asset: sol }, rows, { computeBudget: budget });
    const cost = transferCost(plan, rows, sol, { accountRent: 2_039_280n, budgets: [budget] });
    // 3 micro-lamports × 10,001 units = 30,003 micro-lamports: 1 lamport after rounding up.
    expect(cost).toEqual({
      transactions: 1,
      networkFees: LAMPORTS_PER_SIGNATURE,
      priorityFees: 1n,
      newAccountRent: 0n,
      totalAmount: 3_000_000n,
      lamportsNeeded: 5_001n + 3_000_000n,
    });
    const token: TransferAsset = {
      kind: "token",
      mint: a,
      decimals: 0,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
      source: b,
    };
    const tokenCost = transferCost({ transactions: plan.transactions, newAccounts: [a, b] }, rows, token, {
      accountRent: 2_039_280n,
    });
    expect(tokenCost.lamportsNeeded).toBe(LAMPORTS_PER_SIGNATURE + 2n * 2_039_280n);
  });
});

describe("balanceProblems", () => {
  const cost = {
    transactions: 1,
    networkFees: 5000n,
    priorityFees: 0n,
    newAccountRent: 0n,
    totalAmount: 10n,
    lamportsNeeded: 5010n,
  };
  it("keeps the sender rent-exempt and checks the token balance", () => {
    expect(balanceProblems(cost, sol, { lamports: 5010n + RENT_EXEMPT_MINIMUM_EMPTY })).toEqual([]);
    expect(balanceProblems(cost, sol, { lamports: 5010n })).toEqual([
      { code: "balance.insufficientSol", shortfall: RENT_EXEMPT_MINIMUM_EMPTY },
    ]);
    const token: TransferAsset = {
      kind: "token",
      mint: a,
      decimals: 0,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
      source: b,
    };
    expect(balanceProblems(cost, token, { lamports: 10n ** 9n, tokenBalance: 9n })).toEqual([
      { code: "balance.insufficientToken", shortfall: 1n },
    ]);
  });
});

describe("rowsBelowRentExemption", () => {
  it("flags SOL rows that would leave a recipient below the rent-exempt minimum", () => {
    const rows = [
      { index: 0, address: a, amount: RENT_EXEMPT_MINIMUM_EMPTY - 1n },
      { index: 1, address: a, amount: RENT_EXEMPT_MINIMUM_EMPTY },
      { index: 2, address: b, amount: 1n },
    ];
    expect(rowsBelowRentExemption(rows, new Map())).toEqual([0, 2]);
    expect(rowsBelowRentExemption(rows, new Map([[b, RENT_EXEMPT_MINIMUM_EMPTY]]))).toEqual([0]);
    expect(rowsBelowRentExemption(rows, new Map([[a, 1n]]))).toEqual([2]);
  });
});

describe("mintIssues", () => {
  it("names the Token-2022 extensions a plain transferChecked cannot serve", () => {
    expect(mintIssues([])).toEqual([]);
    expect(mintIssues(["transferHook", "transferFeeConfig", "metadataPointer"])).toEqual([
      "mint.transferHook",
      "mint.transferFee",
    ]);
    expect(mintIssues(["nonTransferable"])).toEqual(["mint.nonTransferable"]);
  });
});
