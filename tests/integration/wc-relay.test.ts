import {
  getBase58Decoder,
  getBase58Encoder,
  getPublicKeyFromAddress,
  type SignatureBytes,
  verifySignature,
} from "@solana/kit";
import { SignClient } from "@walletconnect/sign-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountForNetwork,
  proposalNamespaces,
  resultSignature,
  sessionAccounts,
  signMessageParams,
  WC_CHAINS,
  wcErrorCode,
} from "../../app/lib/solana/walletconnect.ts";
import { startTestRelay, type TestRelay } from "../setup/wc-relay.ts";
import { memoryStorage, startTestWcWallet, type TestWcWallet } from "../setup/wc-wallet.ts";

// The test relay and the test wallet that the WalletConnect browser journey stands on, checked
// with the real sign client on both sides: pairing through the relay's mailbox, a rejected and
// an approved proposal, and a signed message that verifies.

const projectId = "inkwelltest0001";
let relay: TestRelay;
let wallet: TestWcWallet;

beforeAll(async () => {
  relay = await startTestRelay();
  wallet = await startTestWcWallet({ relayUrl: relay.url, projectId });
});

afterAll(async () => {
  await wallet?.close();
  await relay?.close();
});

describe("the WalletConnect test relay and wallet", () => {
  it("pairs, rejects then approves a proposal, and signs a message that verifies", async () => {
    const dapp = await SignClient.init({
      projectId,
      relayUrl: relay.url,
      telemetryEnabled: false,
      storage: memoryStorage(),
      customStoragePrefix: "test-dapp",
      metadata: { name: "Inkwell test", description: "test", url: "http://127.0.0.1", icons: [] },
    });
    try {
      wallet.rejectNext = true;
      const first = await dapp.connect({ optionalNamespaces: proposalNamespaces("devnet") });
      expect(first.uri).toMatch(/^wc:/);
      await wallet.pair(first.uri ?? "");
      const refused = await first.approval().then(
        () => null,
        (error: unknown) => error,
      );
      expect(wcErrorCode(refused)).toBe("rejected");

      const second = await dapp.connect({ optionalNamespaces: proposalNamespaces("devnet") });
      await wallet.pair(second.uri ?? "");
      const session = await second.approval();
      const accounts = sessionAccounts(session.namespaces);
      expect(accounts.map((a) => a.chain)).toEqual([WC_CHAINS.devnet, WC_CHAINS["mainnet-beta"]]);
      const account = accountForNetwork(accounts, "devnet");
      expect(account).toEqual({ chain: WC_CHAINS.devnet, address: wallet.address });

      const message = new TextEncoder().encode("hello relay");
      const result = await dapp.request({
        topic: session.topic,
        chainId: WC_CHAINS.devnet,
        request: {
          method: "solana_signMessage",
          params: signMessageParams(getBase58Decoder().decode(message), wallet.address),
        },
      });
      const signature = resultSignature(result);
      expect(signature).not.toBeNull();
      const key = await getPublicKeyFromAddress(wallet.address);
      const bytes = new Uint8Array(getBase58Encoder().encode(signature ?? ""));
      expect(await verifySignature(key, bytes as SignatureBytes, message)).toBe(true);
      expect(wallet.answered.solana_signMessage).toBe(1);
      expect(relay.methods).toContain("wc_proposeSession");
      expect(relay.methods).toContain("wc_approveSession");
    } finally {
      await dapp.core.relayer.transportClose().catch(() => {});
    }
  }, 30_000);
});
