/**
 * Wallets through the Wallet Standard: discovery, connect/disconnect, and the Solana signing
 * features. Browser only; imported by the /solana routes and nothing else.
 */

import { getWallets } from "@wallet-standard/app";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import { SolanaToolError } from "../lib/solana/errors.ts";

export type { Wallet, WalletAccount };

export const FEATURES = {
  connect: "standard:connect",
  disconnect: "standard:disconnect",
  events: "standard:events",
  signTransaction: "solana:signTransaction",
  signAndSendTransaction: "solana:signAndSendTransaction",
  signMessage: "solana:signMessage",
} as const;

interface ConnectFeature {
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletAccount[] }>;
}
interface DisconnectFeature {
  disconnect(): Promise<void>;
}
interface EventsFeature {
  on(event: "change", listener: (properties: { accounts?: readonly WalletAccount[] }) => void): () => void;
}
interface SignTransactionFeature {
  signTransaction(
    ...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string }[]
  ): Promise<readonly { signedTransaction: Uint8Array }[]>;
}
interface SignAndSendFeature {
  signAndSendTransaction(
    ...inputs: { account: WalletAccount; transaction: Uint8Array; chain: string }[]
  ): Promise<readonly { signature: Uint8Array }[]>;
}
interface SignMessageFeature {
  signMessage(
    ...inputs: { account: WalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array }[]>;
}

function feature<T>(wallet: Wallet, name: string): T | null {
  const value: unknown = (wallet.features as Record<string, unknown>)[name];
  return typeof value === "object" && value !== null ? (value as T) : null;
}

export function hasFeature(wallet: Wallet, name: (typeof FEATURES)[keyof typeof FEATURES]): boolean {
  return feature<object>(wallet, name) !== null;
}

/** A wallet the pages can use: it speaks Solana and can connect. */
export function isSolanaWallet(wallet: Wallet): boolean {
  return wallet.chains.some((c) => c.startsWith("solana:")) && hasFeature(wallet, FEATURES.connect);
}

/** Calls back with the Solana wallets now and whenever one registers or leaves. */
export function watchWallets(callback: (wallets: Wallet[]) => void): () => void {
  const api = getWallets();
  const emit = () => callback(api.get().filter(isSolanaWallet));
  emit();
  const offRegister = api.on("register", emit);
  const offUnregister = api.on("unregister", emit);
  return () => {
    offRegister();
    offUnregister();
  };
}

export async function connectWallet(wallet: Wallet, silent: boolean): Promise<readonly WalletAccount[]> {
  const connect = feature<ConnectFeature>(wallet, FEATURES.connect);
  if (!connect) throw new SolanaToolError("unsupported", "wallet cannot connect");
  const { accounts } = await connect.connect(silent ? { silent: true } : undefined);
  return accounts;
}

export async function disconnectWallet(wallet: Wallet): Promise<void> {
  await feature<DisconnectFeature>(wallet, FEATURES.disconnect)?.disconnect();
}

/** Follows the wallet's account changes (switch, lock); returns the unsubscribe function. */
export function onAccountsChange(wallet: Wallet, listener: (accounts: readonly WalletAccount[]) => void): () => void {
  const events = feature<EventsFeature>(wallet, FEATURES.events);
  if (!events) return () => {};
  return events.on("change", (properties) => {
    if (properties.accounts) listener(properties.accounts);
  });
}

/**
 * Signs several wire transactions. With `solana:signTransaction` they go in ONE request (one
 * prompt where the wallet supports it); returns the signed wire bytes in order.
 */
export async function signTransactions(
  wallet: Wallet,
  account: WalletAccount,
  transactions: readonly Uint8Array[],
  chain: string | undefined,
): Promise<Uint8Array[]> {
  const sign = feature<SignTransactionFeature>(wallet, FEATURES.signTransaction);
  if (!sign) throw new SolanaToolError("unsupported", "wallet cannot sign transactions");
  const inputs = transactions.map((transaction) =>
    chain ? { account, transaction, chain } : { account, transaction },
  );
  const results = await sign.signTransaction(...inputs);
  if (results.length !== transactions.length)
    throw new SolanaToolError("unsupported", "wallet returned a different number of transactions");
  return results.map((r) => r.signedTransaction);
}

/** Signs and sends through the wallet (for wallets without `solana:signTransaction`). */
export async function signAndSendTransaction(
  wallet: Wallet,
  account: WalletAccount,
  transaction: Uint8Array,
  chain: string,
): Promise<Uint8Array> {
  const send = feature<SignAndSendFeature>(wallet, FEATURES.signAndSendTransaction);
  if (!send) throw new SolanaToolError("unsupported", "wallet cannot send transactions");
  const [result] = await send.signAndSendTransaction({ account, transaction, chain });
  if (!result) throw new SolanaToolError("unsupported", "wallet returned no signature");
  return result.signature;
}

export async function signMessage(
  wallet: Wallet,
  account: WalletAccount,
  message: Uint8Array,
): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }> {
  const sign = feature<SignMessageFeature>(wallet, FEATURES.signMessage);
  if (!sign) throw new SolanaToolError("unsupported", "wallet cannot sign messages");
  const [result] = await sign.signMessage({ account, message });
  if (!result) throw new SolanaToolError("unsupported", "wallet returned no signature");
  return result;
}
