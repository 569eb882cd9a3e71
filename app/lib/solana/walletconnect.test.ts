import { describe, expect, it } from "vitest";
import {
  accountForNetwork,
  asWcError,
  proposalNamespaces,
  resultSignature,
  resultTransaction,
  sessionAccounts,
  signMessageParams,
  signTransactionParams,
  WC_CHAINS,
  wcErrorCode,
  withFeePayerSignature,
} from "./walletconnect.ts";

const A = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
const B = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";

describe("WalletConnect's Solana namespace", () => {
  it("proposes the network in use first, the other public cluster second, and the two methods", () => {
    expect(proposalNamespaces("devnet")).toEqual({
      solana: {
        chains: [WC_CHAINS.devnet, WC_CHAINS["mainnet-beta"]],
        methods: ["solana_signMessage", "solana_signTransaction"],
        events: [],
      },
    });
    expect(proposalNamespaces("mainnet-beta").solana.chains[0]).toBe(WC_CHAINS["mainnet-beta"]);
    expect(proposalNamespaces("custom").solana.chains[0]).toBe(WC_CHAINS["mainnet-beta"]);
  });

  it("maps a session's CAIP-10 accounts to chain and address, skipping malformed ones", () => {
    const accounts = sessionAccounts({
      solana: {
        accounts: [
          `${WC_CHAINS["mainnet-beta"]}:${A}`,
          `${WC_CHAINS.devnet}:${B}`,
          "solana:x:not-base58-0OIl",
          `eip155:1:${A}`,
          `solana::${A}`,
          A,
        ],
      },
      eip155: { accounts: ["eip155:1:0xabc"] },
    });
    expect(accounts).toEqual([
      { chain: WC_CHAINS["mainnet-beta"], address: A },
      { chain: WC_CHAINS.devnet, address: B },
    ]);
    expect(sessionAccounts({})).toEqual([]);
  });

  it("picks the account on the network's chain, else the first", () => {
    const accounts = [
      { chain: WC_CHAINS["mainnet-beta"], address: A },
      { chain: WC_CHAINS.devnet, address: B },
    ];
    expect(accountForNetwork(accounts, "devnet")?.address).toBe(B);
    expect(accountForNetwork(accounts, "mainnet-beta")?.address).toBe(A);
    expect(accountForNetwork(accounts, "custom")?.address).toBe(A);
    expect(accountForNetwork([{ chain: WC_CHAINS.devnet, address: B }], "mainnet-beta")?.address).toBe(B);
    expect(accountForNetwork([], "devnet")).toBeNull();
  });

  it("classifies errors: rejected, expired, unsupported, anything else", () => {
    expect(wcErrorCode({ code: 5000, message: "User rejected." })).toBe("rejected");
    expect(wcErrorCode(new Error("Proposal expired"))).toBe("expired");
    expect(wcErrorCode({ code: 8000, message: "Request expired" })).toBe("expired");
    expect(wcErrorCode({ code: 5101, message: "no" })).toBe("unsupported");
    expect(wcErrorCode(new Error("socket hang up"))).toBe("failed");
    expect(wcErrorCode("weird")).toBe("failed");
  });

  it("turns what the client rejects with into an Error with the wallet's message", () => {
    expect(asWcError({ code: 5000, message: "User rejected." }).message).toBe("User rejected.");
    expect(asWcError("Request expired. Please try again.").message).toBe("Request expired. Please try again.");
    const original = new Error("x");
    expect(asWcError(original)).toBe(original);
    expect(asWcError({ code: 1 }).message).toBe("[object Object]");
  });

  it("builds the request params and reads the answers", () => {
    expect(signMessageParams("3yZe7d", A)).toEqual({ message: "3yZe7d", pubkey: A });
    expect(signTransactionParams("AQID")).toEqual({ transaction: "AQID" });
    expect(resultSignature({ signature: "5sig" })).toBe("5sig");
    expect(resultSignature({ signature: "" })).toBeNull();
    expect(resultSignature(null)).toBeNull();
    expect(resultTransaction({ signature: "5sig", transaction: "AQID" })).toBe("AQID");
    expect(resultTransaction({ signature: "5sig" })).toBeNull();
  });

  it("puts a fee payer's signature into the first slot of a wire transaction", () => {
    const wire = new Uint8Array([1, ...new Uint8Array(64), 9, 9, 9]);
    const signature = new Uint8Array(64).fill(7);
    const signed = withFeePayerSignature(wire, signature);
    expect([...signed.subarray(1, 65)]).toEqual([...signature]);
    expect([...signed.subarray(65)]).toEqual([9, 9, 9]);
    expect(wire[1]).toBe(0);
    expect(() => withFeePayerSignature(wire, new Uint8Array(63))).toThrow(/64 bytes/);
    expect(() => withFeePayerSignature(new Uint8Array([0, 1]), signature)).toThrow(/signature count/);
  });
});
