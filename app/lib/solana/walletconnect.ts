/**
 * WalletConnect's Solana namespace as pure code: chains, the namespaces a dapp proposes, the
 * account a session gives, the wire shapes of the signing requests, and error codes. No
 * WalletConnect package is imported here (the page loads the client lazily), so this runs in
 * unit tests. The relay URL helpers live in network.ts (the server uses them).
 */

import { parseAddress } from "./address.ts";
import type { NetworkId } from "./network.ts";

/** CAIP-2 chain ids of the Solana clusters (the genesis hash, shortened). */
export const WC_CHAINS = {
  "mainnet-beta": "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  devnet: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
} as const;

export type WcChain = (typeof WC_CHAINS)[keyof typeof WC_CHAINS];

export const WC_METHODS = ["solana_signMessage", "solana_signTransaction"] as const;

/**
 * The namespaces the page proposes: the Solana network being used first, the other public one
 * too (a wallet may only know one). Optional namespaces: required ones are deprecated.
 */
export function proposalNamespaces(network: NetworkId): {
  solana: { chains: WcChain[]; methods: string[]; events: string[] };
} {
  const first = network === "devnet" ? WC_CHAINS.devnet : WC_CHAINS["mainnet-beta"];
  const other = first === WC_CHAINS.devnet ? WC_CHAINS["mainnet-beta"] : WC_CHAINS.devnet;
  return { solana: { chains: [first, other], methods: [...WC_METHODS], events: [] } };
}

export interface WcAccount {
  /** CAIP-2 chain of the account (`solana:<genesis>`). */
  chain: string;
  address: string;
}

/**
 * Every Solana account a session's namespaces grant (`solana:<chain>:<address>`), valid addresses
 * only, in the order the wallet gave them.
 */
export function sessionAccounts(namespaces: Record<string, { accounts?: readonly string[] } | undefined>): WcAccount[] {
  const out: WcAccount[] = [];
  for (const account of namespaces.solana?.accounts ?? []) {
    const parts = account.split(":");
    if (parts.length !== 3 || parts[0] !== "solana" || !parts[1]) continue;
    const parsed = parseAddress(parts[2] ?? "");
    if (!parsed.ok) continue;
    out.push({ chain: `solana:${parts[1]}`, address: parsed.address });
  }
  return out;
}

/**
 * The account and chain to use on a network: the session's account on that network's chain, else
 * (custom RPC, or a wallet that approved only the other cluster) its first account.
 */
export function accountForNetwork(accounts: readonly WcAccount[], network: NetworkId): WcAccount | null {
  const wanted = network === "custom" ? null : WC_CHAINS[network];
  return accounts.find((a) => a.chain === wanted) ?? accounts[0] ?? null;
}

/** What the page shows when a request or the pairing ends badly. */
export type WcErrorCode = "rejected" | "expired" | "unsupported" | "failed";

/**
 * Classifies an error from the sign client or the wallet: the SDK's codes (5000 user rejected,
 * 5100–5103 unsupported, 8000 expired) and its messages for an expired proposal or request.
 */
export function wcErrorCode(error: unknown): WcErrorCode {
  const code = typeof error === "object" && error !== null && "code" in error ? Number(error.code) : null;
  const message =
    error instanceof Error
      ? error.message
      : typeof error === "object" && error !== null && "message" in error
        ? String(error.message)
        : String(error);
  if (code === 5000 || code === 4001 || /reject/i.test(message)) return "rejected";
  if (code === 8000 || /expired/i.test(message)) return "expired";
  if (code !== null && code >= 5100 && code <= 5103) return "unsupported";
  if (/unsupported/i.test(message)) return "unsupported";
  return "failed";
}

/**
 * An Error for what the sign client rejected with: wallets answer JSON-RPC errors (`{code,
 * message}`) and the client rejects with that plain object, or a string on expiry.
 */
export function asWcError(error: unknown): Error {
  if (error instanceof Error) return error;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return new Error(error.message);
  }
  return new Error(String(error));
}

/** `solana_signMessage` parameters: the message in base58 and the signer's address. */
export function signMessageParams(messageBase58: string, address: string): { message: string; pubkey: string } {
  return { message: messageBase58, pubkey: address };
}

/** `solana_signTransaction` parameters: the whole wire transaction in base64. */
export function signTransactionParams(transactionBase64: string): { transaction: string } {
  return { transaction: transactionBase64 };
}

/** The signature (base58) a wallet answered, or null when the answer has none. */
export function resultSignature(result: unknown): string | null {
  if (typeof result !== "object" || result === null || !("signature" in result)) return null;
  return typeof result.signature === "string" && result.signature.length > 0 ? result.signature : null;
}

/** The signed transaction (base64) a wallet answered to `solana_signTransaction`, if it sent one back. */
export function resultTransaction(result: unknown): string | null {
  if (typeof result !== "object" || result === null || !("transaction" in result)) return null;
  return typeof result.transaction === "string" && result.transaction.length > 0 ? result.transaction : null;
}

/**
 * Puts a fee payer's 64-byte signature into a wire transaction's first slot (for wallets that
 * answer only the signature). The wire format starts with a compact-u16 count of signatures.
 */
export function withFeePayerSignature(wire: Uint8Array, signature: Uint8Array): Uint8Array {
  if (signature.length !== 64) throw new Error("a signature has 64 bytes");
  const count = wire[0] ?? 0;
  if (count === 0 || count >= 0x80) throw new Error("unexpected signature count in the transaction");
  const out = new Uint8Array(wire);
  out.set(signature, 1);
  return out;
}
