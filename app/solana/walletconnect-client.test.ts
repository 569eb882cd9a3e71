import { generateKeyPairSync } from "node:crypto";
import { getBase58Decoder, getBase64Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WC_CHAINS } from "../lib/solana/walletconnect.ts";
import { signMessage, signTransactions } from "./wallet.ts";
import { qrModules, sessionWallet, type WalletConnectController, type WcSession } from "./walletconnect-client.ts";

// The session as a Wallet Standard wallet: which requests reach the phone, on which chain, and
// how its answers come back as bytes. The controller is a fake that records the requests.

const b58 = getBase58Decoder();
const address = b58.decode(
  generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" }).subarray(-32),
);

function fakeController(answer: (method: string, params: Record<string, string>) => unknown) {
  const requests: { topic: string; chainId: string; method: string; params: Record<string, string> }[] = [];
  const controller: WalletConnectController = {
    current: () => null,
    pair: async () => {
      throw new Error("not here");
    },
    disconnect: async () => {},
    request: async (topic, chainId, method, params) => {
      requests.push({ topic, chainId, method, params: params as Record<string, string> });
      return answer(method, params as Record<string, string>);
    },
    onEnded: () => () => {},
  };
  return { controller, requests };
}

const session: WcSession = {
  topic: "t1",
  peerName: "Phone Wallet",
  accounts: [
    { chain: WC_CHAINS["mainnet-beta"], address },
    { chain: WC_CHAINS.devnet, address },
  ],
  expiry: 2_000_000_000,
};

describe("the WalletConnect session as a wallet", () => {
  it("signs a message through solana_signMessage on the network's chain", async () => {
    const signature = new Uint8Array(64).fill(3);
    const { controller, requests } = fakeController(() => ({ signature: b58.decode(signature) }));
    const signer = sessionWallet(controller, session, "devnet");
    expect(signer?.wallet.name).toBe("Phone Wallet");
    if (!signer) return;
    const message = new TextEncoder().encode("hi");
    const result = await signMessage(signer.wallet, signer.account, message);
    expect([...result.signature]).toEqual([...signature]);
    expect(result.signedMessage).toBe(message);
    expect(requests).toEqual([
      {
        topic: "t1",
        chainId: WC_CHAINS.devnet,
        method: "solana_signMessage",
        params: { message: b58.decode(message), pubkey: address },
      },
    ]);
  });

  it("signs transactions one request each, taking the returned transaction or the bare signature", async () => {
    const wire = new Uint8Array([1, ...new Uint8Array(64), 1, 2, 3]);
    const returned = new Uint8Array([1, ...new Uint8Array(64).fill(9), 1, 2, 3]);
    let call = 0;
    const { controller, requests } = fakeController(() =>
      call++ === 0
        ? { signature: "unused", transaction: getBase64Decoder().decode(returned) }
        : { signature: b58.decode(new Uint8Array(64).fill(5)) },
    );
    const signer = sessionWallet(controller, session, "custom");
    if (!signer) throw new Error("no signer");
    const [first, second] = await signTransactions(signer.wallet, signer.account, [wire, wire], undefined);
    expect([...(first ?? new Uint8Array())]).toEqual([...returned]);
    expect([...(second ?? new Uint8Array()).subarray(1, 65)]).toEqual(new Array(64).fill(5));
    expect(requests.map((r) => [r.method, r.chainId, r.params.transaction])).toEqual([
      ["solana_signTransaction", WC_CHAINS["mainnet-beta"], getBase64Decoder().decode(wire)],
      ["solana_signTransaction", WC_CHAINS["mainnet-beta"], getBase64Decoder().decode(wire)],
    ]);
  });

  it("refuses an answer without a signature, and a session without an account", async () => {
    const { controller } = fakeController(() => ({}));
    const signer = sessionWallet(controller, session, "mainnet-beta");
    if (!signer) throw new Error("no signer");
    await expect(signMessage(signer.wallet, signer.account, new Uint8Array([1]))).rejects.toThrow(
      /without a signature/,
    );
    expect(sessionWallet(controller, { ...session, accounts: [] }, "devnet")).toBeNull();
  });
});

describe("the pairing QR code", () => {
  it("is a square matrix with the finder patterns in three corners", () => {
    const { size, dark } = qrModules(`wc:${"a".repeat(64)}@2?relay-protocol=irn&symKey=${"b".repeat(64)}`);
    expect(dark).toHaveLength(size * size);
    expect(size).toBeGreaterThanOrEqual(21);
    const at = (row: number, col: number) => dark[row * size + col];
    // Each finder pattern: a dark 7×7 ring around a light ring around a dark 3×3 core.
    for (const [r, c] of [
      [0, 0],
      [0, size - 7],
      [size - 7, 0],
    ] as const) {
      expect(at(r, c)).toBe(true);
      expect(at(r + 1, c + 1)).toBe(false);
      expect(at(r + 3, c + 3)).toBe(true);
    }
  });
});
