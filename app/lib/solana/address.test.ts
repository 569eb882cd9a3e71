import { type Address, generateKeyPairSigner } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { LiteSVM } from "litesvm";
import { describe, expect, it } from "vitest";
import { isOffCurve, KNOWN_ADDRESSES, knownAddress, parseAddress, shortAddress } from "./address.ts";

describe("parseAddress", () => {
  it("accepts base58 of 32 bytes, trimming outer blanks", () => {
    expect(parseAddress(" 11111111111111111111111111111111 ")).toEqual({
      ok: true,
      address: "11111111111111111111111111111111",
    });
    expect(parseAddress("Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u3Ggs").ok).toBe(true);
  });

  it.each([
    ["", "address.empty"],
    ["  ", "address.empty"],
    ["0OIl111111111111111111111111111111", "address.notBase58"],
    ["Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u3Ggs\u200b", "address.notBase58"],
    ["Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u 3Ggs", "address.notBase58"],
    ["0x52908400098527886E0F7030069857D2E4169EE7", "address.notBase58"],
    ["1111111111111111111111111111111", "address.wrongLength"],
    ["111111111111111111111111111111111", "address.wrongLength"],
    ["Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u3GgsHf6w", "address.wrongLength"],
    ["zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "address.wrongLength"],
  ])("refuses %j as %s", (text, code) => {
    expect(parseAddress(text)).toEqual({ ok: false, code });
  });
});

describe("known addresses", () => {
  it("are all valid addresses, and the programs and sysvars litesvm carries match its accounts", () => {
    const svm = new LiteSVM();
    let checked = 0;
    for (const [address, { kind }] of KNOWN_ADDRESSES) {
      expect(parseAddress(address).ok).toBe(true);
      const account = svm.getAccount(address as Address);
      if (!account.exists) continue;
      checked++;
      if (kind === "sysvar") expect(account.programAddress).toBe("Sysvar1111111111111111111111111111111111111");
      else if (address !== "StakeConfig11111111111111111111111111111111") expect(account.executable).toBe(true);
    }
    expect(checked).toBeGreaterThan(25);
  });

  it("tells what an address is", () => {
    expect(knownAddress("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")?.kind).toBe("program");
    expect(knownAddress("SysvarRent111111111111111111111111111111111")?.kind).toBe("sysvar");
    expect(knownAddress("Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u3Ggs")).toBeUndefined();
  });
});

describe("helpers", () => {
  it("sees program-derived addresses as off the curve", async () => {
    // A wallet key versus its associated token account (a PDA).
    const wallet = (await generateKeyPairSigner()).address;
    const [ata] = await findAssociatedTokenPda({
      owner: wallet,
      mint: "So11111111111111111111111111111111111111112" as Address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    expect(isOffCurve(wallet)).toBe(false);
    expect(isOffCurve(ata)).toBe(true);
  });

  it("shortens long addresses only", () => {
    expect(shortAddress("Hf6wZmcgHxZyuP1Ua8k4wqJVYHKyKhkpDT1TJZ7u3Ggs")).toBe("Hf6w…3Ggs");
    expect(shortAddress("abc")).toBe("abc");
  });
});
