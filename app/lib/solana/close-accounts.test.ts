import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import {
  notClosableReason,
  selectClosable,
  type TokenAccountInfo,
  tokenAccountFromJsonParsed,
} from "./close-accounts.ts";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "./transfer-plan.ts";

const owner = "Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u3Ggs" as Address;
const other = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" as Address;

function account(patch: Partial<TokenAccountInfo> = {}): TokenAccountInfo {
  return {
    address: "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T" as Address,
    program: TOKEN_PROGRAM_ADDRESS,
    mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address,
    owner,
    amount: 0n,
    lamports: 2_039_280n,
    isNative: false,
    state: "initialized",
    closeAuthority: null,
    withheldAmount: 0n,
    extensions: [],
    ...patch,
  };
}

describe("notClosableReason", () => {
  it.each([
    ["an empty account", {}, null],
    ["an empty Token-2022 account", { program: TOKEN_2022_PROGRAM_ADDRESS, extensions: ["immutableOwner"] }, null],
    ["an empty wrapped SOL account", { isNative: true }, null],
    ["the owner as close authority", { closeAuthority: owner }, null],
    ["a balance", { amount: 1n }, "close.hasBalance"],
    ["wrapped SOL with a balance", { isNative: true, amount: 5n }, "close.wrappedSolBalance"],
    ["withheld transfer fees", { program: TOKEN_2022_PROGRAM_ADDRESS, withheldAmount: 3n }, "close.withheldFees"],
    ["another close authority", { closeAuthority: other }, "close.otherCloseAuthority"],
    ["a frozen account", { state: "frozen" as const }, "close.frozen"],
    ["someone else's account", { owner: other }, "close.notOwner"],
    ["an unknown program", { program: other }, "close.unknownProgram"],
    ["confidential transfer state", { extensions: ["confidentialTransferAccount"] }, "close.confidentialBalance"],
  ])("%s gives %s", (_name, patch, reason) => {
    expect(notClosableReason(account(patch), owner)).toBe(reason);
  });
});

describe("selectClosable", () => {
  it("returns each account's lamports as its rent and the total", () => {
    const a = account({ lamports: 2_039_280n });
    const b = account({ address: other, lamports: 2_074_080n, program: TOKEN_2022_PROGRAM_ADDRESS });
    const c = account({ amount: 7n });
    const selection = selectClosable([a, b, c], owner);
    expect(selection.closable).toEqual([
      { account: a, rent: 2_039_280n },
      { account: b, rent: 2_074_080n },
    ]);
    expect(selection.kept).toEqual([{ account: c, reason: "close.hasBalance" }]);
    expect(selection.totalRent).toBe(4_113_360n);
  });
});

describe("tokenAccountFromJsonParsed", () => {
  const entry = (info: Record<string, unknown>, program = TOKEN_2022_PROGRAM_ADDRESS) => ({
    pubkey: "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
    account: {
      lamports: 2_074_080n,
      owner: program,
      executable: false,
      data: {
        program: "spl-token-2022",
        space: 170n,
        parsed: {
          type: "account",
          info: {
            isNative: false,
            mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            owner,
            state: "initialized",
            tokenAmount: { amount: "0", decimals: 6, uiAmount: 0, uiAmountString: "0" },
            ...info,
          },
        },
      },
    },
  });

  it("reads a Token-2022 account with extensions", () => {
    const info = tokenAccountFromJsonParsed(
      entry({
        closeAuthority: other,
        extensions: [
          { extension: "immutableOwner" },
          { extension: "transferFeeAmount", state: { withheldAmount: 12 } },
        ],
      }),
    );
    expect(info).toEqual({
      address: "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
      program: TOKEN_2022_PROGRAM_ADDRESS,
      mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      owner,
      amount: 0n,
      lamports: 2_074_080n,
      isNative: false,
      state: "initialized",
      closeAuthority: other,
      withheldAmount: 12n,
      extensions: ["immutableOwner", "transferFeeAmount"],
    });
  });

  it("keeps an account whose withheld amount it cannot read", () => {
    const info = tokenAccountFromJsonParsed(
      entry({ extensions: [{ extension: "transferFeeAmount", state: { withheldAmount: "lots" } }] }),
    );
    expect(info && notClosableReason(info, owner)).toBe("close.withheldFees");
  });

  it("returns null for shapes it does not know, never a closable account", () => {
    expect(tokenAccountFromJsonParsed(null)).toBeNull();
    expect(tokenAccountFromJsonParsed({ pubkey: "x", account: { data: ["AAAA", "base64"] } })).toBeNull();
    expect(tokenAccountFromJsonParsed(entry({ tokenAmount: { amount: 0.5 } }))).toBeNull();
    expect(tokenAccountFromJsonParsed(entry({ state: "weird" }))).toBeNull();
    expect(tokenAccountFromJsonParsed(entry({ closeAuthority: 42 }))).toBeNull();
    expect(tokenAccountFromJsonParsed(entry({ extensions: [{ nope: true }] }))).toBeNull();
  });
});
