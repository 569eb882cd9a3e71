/**
 * WalletConnect in the browser: the sign client (dapp role) for /solana/WalletConnect, a QR code
 * for its pairing URI, and the session turned into a Wallet Standard wallet so the shared account
 * tools sign through it unchanged. Loaded with `import()` by that page only: nothing else may
 * import this module (tests/integration/wallet-chunks.test.ts checks it).
 */

import type { Address } from "@solana/kit";
import { getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder } from "@solana/kit";
import { SignClient } from "@walletconnect/sign-client";
import type { SessionTypes } from "@walletconnect/types";
import { getSdkError } from "@walletconnect/utils";
import QRCode from "qrcode";
import { addressBytes } from "../lib/solana/address.ts";
import type { NetworkId } from "../lib/solana/network.ts";
import {
  accountForNetwork,
  asWcError,
  proposalNamespaces,
  resultSignature,
  resultTransaction,
  sessionAccounts,
  signMessageParams,
  signTransactionParams,
  type WcAccount,
  withFeePayerSignature,
} from "../lib/solana/walletconnect.ts";
import type { Wallet, WalletAccount } from "./wallet.ts";

type Client = Awaited<ReturnType<typeof SignClient.init>>;

export interface WcSession {
  topic: string;
  /** The wallet's name as it introduced itself. */
  peerName: string;
  accounts: WcAccount[];
  /** Seconds since the epoch. */
  expiry: number;
}

export interface WcPairing {
  uri: string;
  /** Settles when the wallet approves (the session) or rejects, or the proposal expires. */
  approval: Promise<WcSession>;
}

export interface WalletConnectController {
  /** The newest live session with a Solana account (restored from the browser's storage). */
  current(): WcSession | null;
  pair(network: NetworkId): Promise<WcPairing>;
  disconnect(topic: string): Promise<void>;
  request(topic: string, chainId: string, method: string, params: object): Promise<unknown>;
  /** Calls back when the wallet ends the session or it expires; returns the unsubscribe function. */
  onEnded(listener: (topic: string) => void): () => void;
}

function toSession(struct: SessionTypes.Struct): WcSession {
  return {
    topic: struct.topic,
    peerName: struct.peer.metadata.name || "WalletConnect",
    accounts: sessionAccounts(struct.namespaces),
    expiry: struct.expiry,
  };
}

interface StartInput {
  projectId: string;
  relayUrl: string;
  name: string;
  description: string;
}

/**
 * One client per page load: the sign client's core is a process-wide singleton, so coming back to
 * the page (client-side navigation) reuses the client instead of starting a second one.
 */
const started = new Map<string, Promise<WalletConnectController>>();

/** Starts the sign client on a relay (once). Telemetry is off: the page talks to the relay only. */
export function startWalletConnect(input: StartInput): Promise<WalletConnectController> {
  const key = `${input.projectId} ${input.relayUrl}`;
  let controller = started.get(key);
  if (!controller) {
    controller = createController(input);
    started.set(key, controller);
    // A failed start may be retried with a reload of the page's effect.
    controller.catch(() => started.delete(key));
  }
  return controller;
}

async function createController(input: StartInput): Promise<WalletConnectController> {
  const origin = window.location.origin;
  const client: Client = await SignClient.init({
    projectId: input.projectId,
    relayUrl: input.relayUrl,
    telemetryEnabled: false,
    // The page reports refusals and failures itself; the console keeps only the client's fatal ones.
    logger: "fatal",
    metadata: { name: input.name, description: input.description, url: origin, icons: [`${origin}/favicon.svg`] },
  });
  const listeners = new Set<(topic: string) => void>();
  const ended = ({ topic }: { topic: string }) => {
    for (const listener of listeners) listener(topic);
  };
  client.on("session_delete", ended);
  client.on("session_expire", ended);

  return {
    current() {
      const now = Date.now() / 1000;
      const live = client.session
        .getAll()
        .filter((s) => s.expiry > now && s.acknowledged)
        .map(toSession)
        .filter((s) => s.accounts.length > 0)
        .sort((a, b) => b.expiry - a.expiry);
      return live[0] ?? null;
    },
    async pair(network) {
      const { uri, approval } = await client.connect({ optionalNamespaces: proposalNamespaces(network) });
      if (!uri) throw new Error("no pairing URI");
      return { uri, approval: approval().then(toSession) };
    },
    async disconnect(topic) {
      await client.disconnect({ topic, reason: getSdkError("USER_DISCONNECTED") });
    },
    async request(topic, chainId, method, params) {
      try {
        return await client.request({ topic, chainId, request: { method, params } });
      } catch (error) {
        throw asWcError(error);
      }
    },
    onEnded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The QR code of a text as a square of dark (true) and light modules, row by row. */
export function qrModules(text: string): { size: number; dark: boolean[] } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  return { size: modules.size, dark: Array.from(modules.data, (v) => v === 1) };
}

/** An icon for the Wallet Standard object (a neutral square; the page shows the peer's name). */
const ICON = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=" as const;

/**
 * The session as a Wallet Standard wallet with `solana:signMessage` and `solana:signTransaction`,
 * so the account tools call it exactly like a browser wallet. Requests go to the account's chain
 * on the network in use (the first account for a custom RPC).
 */
export function sessionWallet(
  controller: WalletConnectController,
  session: WcSession,
  network: NetworkId,
): { wallet: Wallet; account: WalletAccount; address: Address } | null {
  const chosen = accountForNetwork(session.accounts, network);
  if (!chosen) return null;
  const address = chosen.address as Address;
  const b58 = getBase58Decoder();
  const fromB58 = getBase58Encoder();
  const b64 = getBase64Decoder();
  const fromB64 = getBase64Encoder();
  const chain = chosen.chain as `${string}:${string}`;
  const account: WalletAccount = {
    address,
    publicKey: addressBytes(address),
    chains: [chain],
    features: ["solana:signMessage", "solana:signTransaction"],
    label: session.peerName,
  };
  const wallet: Wallet = {
    version: "1.0.0",
    name: session.peerName,
    icon: ICON,
    chains: [chain],
    accounts: [account],
    features: {
      "solana:signMessage": {
        version: "1.0.0",
        signMessage: async (...inputs: { message: Uint8Array }[]) => {
          const out: { signedMessage: Uint8Array; signature: Uint8Array }[] = [];
          for (const { message } of inputs) {
            const result = await controller.request(
              session.topic,
              chain,
              "solana_signMessage",
              signMessageParams(b58.decode(message), address),
            );
            const signature = resultSignature(result);
            if (!signature) throw new Error("the wallet answered without a signature");
            out.push({ signedMessage: message, signature: new Uint8Array(fromB58.encode(signature)) });
          }
          return out;
        },
      },
      "solana:signTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signTransaction: async (...inputs: { transaction: Uint8Array }[]) => {
          const out: { signedTransaction: Uint8Array }[] = [];
          // One request per transaction: the WalletConnect method takes one.
          for (const { transaction } of inputs) {
            const result = await controller.request(
              session.topic,
              chain,
              "solana_signTransaction",
              signTransactionParams(b64.decode(transaction)),
            );
            const signed = resultTransaction(result);
            if (signed) {
              out.push({ signedTransaction: new Uint8Array(fromB64.encode(signed)) });
              continue;
            }
            const signature = resultSignature(result);
            if (!signature) throw new Error("the wallet answered without a signature");
            out.push({
              signedTransaction: withFeePayerSignature(transaction, new Uint8Array(fromB58.encode(signature))),
            });
          }
          return out;
        },
      },
    },
  };
  return { wallet, account, address };
}
