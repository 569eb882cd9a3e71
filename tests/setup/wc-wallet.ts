import {
  type Address,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  signBytes,
  signTransaction,
} from "@solana/kit";
import { SignClient } from "@walletconnect/sign-client";
import type { SignClientTypes } from "@walletconnect/types";

/**
 * The wallet side of WalletConnect for tests: the sign client in wallet role, in Node, backed by
 * an Ed25519 key made here. It pairs with a `wc:` URI, approves (or rejects) the session proposal
 * with its one account on every Solana chain proposed, and answers solana_signMessage and
 * solana_signTransaction by signing with @solana/kit. It counts the requests it answered.
 */
export interface TestWcWallet {
  address: Address;
  /** Answers the next proposal with a rejection instead of an approval. */
  rejectNext: boolean;
  /** Answers the next signing request with the user's refusal. */
  refuseNextRequest: boolean;
  /** Requests answered, by method. */
  answered: Record<string, number>;
  pair(uri: string): Promise<void>;
  /** Topics of the wallet's live sessions. */
  sessions(): string[];
  /** Ends every session from the wallet's side (as a user would in the wallet app). */
  disconnectAll(): Promise<void>;
  close(): Promise<void>;
}

/** An IKeyValueStorage in memory (the Node default would write files). */
export function memoryStorage() {
  const items = new Map<string, unknown>();
  return {
    getKeys: async () => [...items.keys()],
    getEntries: async <T>() => [...items.entries()] as [string, T][],
    getItem: async <T>(key: string) => items.get(key) as T | undefined,
    setItem: async <T>(key: string, value: T) => {
      items.set(key, value);
    },
    removeItem: async (key: string) => {
      items.delete(key);
    },
  };
}

export async function startTestWcWallet(input: { relayUrl: string; projectId: string }): Promise<TestWcWallet> {
  const keys = await generateKeyPair();
  const address = await getAddressFromPublicKey(keys.publicKey);
  const b58 = getBase58Decoder();
  const fromB58 = getBase58Encoder();
  const fromB64 = getBase64Encoder();
  const client = await SignClient.init({
    projectId: input.projectId,
    relayUrl: input.relayUrl,
    // Offline: no telemetry batches to the WalletConnect cloud.
    telemetryEnabled: false,
    storage: memoryStorage(),
    // The core is a process-wide singleton per prefix: a wallet needs its own.
    customStoragePrefix: `test-wallet-${address}`,
    metadata: { name: "Test Mobile Wallet", description: "Inkwell tests", url: "http://127.0.0.1", icons: [] },
  });
  const wallet: TestWcWallet = {
    address,
    rejectNext: false,
    refuseNextRequest: false,
    answered: {},
    pair: async (uri) => {
      await client.core.pairing.pair({ uri });
    },
    sessions: () => client.session.getAll().map((s) => s.topic),
    disconnectAll: async () => {
      for (const { topic } of client.session.getAll()) {
        await client.disconnect({ topic, reason: { code: 6000, message: "User disconnected." } });
      }
    },
    close: async () => {
      await client.core.relayer.transportClose().catch(() => {});
    },
  };

  client.on("session_proposal", (proposal: SignClientTypes.EventArguments["session_proposal"]) => {
    void (async () => {
      const { id, params } = proposal;
      if (wallet.rejectNext) {
        wallet.rejectNext = false;
        await client.reject({ id, reason: { code: 5000, message: "User rejected." } });
        return;
      }
      const wanted = [params.requiredNamespaces.solana, params.optionalNamespaces?.solana];
      const chains = [...new Set(wanted.flatMap((ns) => ns?.chains ?? []))];
      const methods = [...new Set(wanted.flatMap((ns) => ns?.methods ?? []))];
      const { acknowledged } = await client.approve({
        id,
        namespaces: {
          solana: { chains, methods, events: [], accounts: chains.map((chain) => `${chain}:${address}`) },
        },
      });
      await acknowledged();
    })();
  });

  client.on("session_request", (event: SignClientTypes.EventArguments["session_request"]) => {
    void (async () => {
      const { id, topic, params } = event;
      const { method } = params.request;
      const args = params.request.params as Record<string, string>;
      let result: Record<string, string>;
      if (wallet.refuseNextRequest) {
        wallet.refuseNextRequest = false;
        await client.respond({
          topic,
          response: { id, jsonrpc: "2.0", error: { code: 5000, message: "User rejected." } },
        });
        return;
      }
      if (method === "solana_signMessage") {
        if (args.pubkey !== address) throw new Error("asked to sign for another key");
        const signature = await signBytes(keys.privateKey, new Uint8Array(fromB58.encode(args.message ?? "")));
        result = { signature: b58.decode(signature) };
      } else if (method === "solana_signTransaction") {
        const transaction = getTransactionDecoder().decode(fromB64.encode(args.transaction ?? ""));
        const signed = await signTransaction([keys], transaction);
        result = {
          signature: getSignatureFromTransaction(signed),
          transaction: getBase64EncodedWireTransaction(signed),
        };
      } else {
        await client.respond({
          topic,
          response: { id, jsonrpc: "2.0", error: { code: 5101, message: `unsupported: ${method}` } },
        });
        return;
      }
      wallet.answered[method] = (wallet.answered[method] ?? 0) + 1;
      await client.respond({ topic, response: { id, jsonrpc: "2.0", result } });
    })();
  });

  return wallet;
}
