/**
 * The state every /solana page shares: the chosen RPC (network picker) and the connected wallet.
 * Wallet discovery runs only in the browser, after hydration.
 */

import type { Address } from "@solana/kit";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { type ClassifiedError, classifyError, SolanaToolError } from "../lib/solana/errors.ts";
import {
  CHAIN,
  connectAllows,
  type NetworkId,
  networkOfUrl,
  PUBLIC_RPC,
  parseRpcUrl,
  RPC_COOKIE,
} from "../lib/solana/network.ts";
import { rpcFor, type SolanaRpc } from "./rpc.ts";
import {
  connectWallet,
  disconnectWallet,
  onAccountsChange,
  type Wallet,
  type WalletAccount,
  watchWallets,
} from "./wallet.ts";

const RPC_KEY = "inkwell.solana.rpc";
const WALLET_KEY = "inkwell.solana.wallet";
/** The custom RPC this tab last reloaded for (session storage): one reload per RPC, never a loop. */
const RELOADED_KEY = "inkwell.solana.reloadedFor";

export interface SolanaState {
  rpcUrl: string;
  network: NetworkId;
  /** Wallet Standard chain of the network; undefined for a custom RPC. */
  chain: string | undefined;
  rpc: SolanaRpc;
  /** Picks a network; a custom URL is kept in a cookie too, so the page's CSP allows it. */
  chooseRpc(url: string): void;
  /** Solana wallets found (null until the browser has looked). */
  wallets: Wallet[] | null;
  wallet: Wallet | null;
  account: WalletAccount | null;
  address: Address | null;
  connecting: boolean;
  /** Why the last connect failed, sorted (the layout shows it in the page's language). */
  connectError: ClassifiedError | null;
  connect(wallet: Wallet): Promise<void>;
  disconnect(): Promise<void>;
}

const SolanaContext = createContext<SolanaState | null>(null);

export function useSolana(): SolanaState {
  const value = useContext(SolanaContext);
  if (!value) throw new Error("useSolana outside SolanaProvider");
  return value;
}

function readStorage(key: string, storage: "local" | "session" = "local"): string | null {
  try {
    return (storage === "local" ? window.localStorage : window.sessionStorage).getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string | null, storage: "local" | "session" = "local") {
  try {
    const store = storage === "local" ? window.localStorage : window.sessionStorage;
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

function writeRpcCookie(url: string | null) {
  // A plain cookie the server reads for the CSP; the Cookie Store API is not in every browser yet.
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: see above
  document.cookie =
    url === null
      ? `${RPC_COOKIE}=; path=/; max-age=0; SameSite=Lax${secure}`
      : `${RPC_COOKIE}=${encodeURIComponent(url)}; path=/; max-age=31536000; SameSite=Lax${secure}`;
}

export function SolanaProvider({
  defaultRpc,
  connectSources,
  children,
}: {
  defaultRpc: string;
  /** What this document's connect-src allows besides 'self' (as the server sent it). */
  connectSources: readonly string[];
  children: ReactNode;
}) {
  const [rpcUrl, setRpcUrl] = useState(defaultRpc);
  // The document's CSP is fixed when it loads: later loader data does not change it.
  const documentSources = useRef(connectSources);
  const [wallets, setWallets] = useState<Wallet[] | null>(null);
  const [wallet, setWallet] = useState<Wallet | null>(null);
  const [account, setAccount] = useState<WalletAccount | null>(null);
  const [connecting, setConnecting] = useState(false);
  const [connectError, setConnectError] = useState<ClassifiedError | null>(null);
  const triedSilent = useRef(false);

  useEffect(() => {
    const stored = readStorage(RPC_KEY);
    const url = stored ? parseRpcUrl(stored) : null;
    if (!url) return;
    if (networkOfUrl(url) === "custom") {
      writeRpcCookie(url);
      // The cookie was missing when this page was asked for (cleared, expired, or written
      // by the previous page just before its reload and not yet sent): load once more.
      if (!connectAllows(documentSources.current, url)) {
        if (readStorage(RELOADED_KEY, "session") !== url) {
          writeStorage(RELOADED_KEY, url, "session");
          window.location.reload();
          return;
        }
      } else {
        writeStorage(RELOADED_KEY, null, "session");
      }
    }
    setRpcUrl(url);
  }, []);

  useEffect(() => watchWallets(setWallets), []);

  // Reconnect the last wallet silently (no prompt); stay disconnected if it wants one.
  useEffect(() => {
    if (!wallets || triedSilent.current || wallet) return;
    const last = readStorage(WALLET_KEY);
    const found = last ? wallets.find((w) => w.name === last) : undefined;
    if (!found) return;
    triedSilent.current = true;
    connectWallet(found, true)
      .then((accounts) => {
        const first = accounts[0];
        if (first) {
          setWallet(found);
          setAccount(first);
        }
      })
      .catch(() => {});
  }, [wallets, wallet]);

  useEffect(() => {
    if (!wallet) return;
    return onAccountsChange(wallet, (accounts) => setAccount(accounts[0] ?? null));
  }, [wallet]);

  const chooseRpc = useCallback((url: string) => {
    const parsed = parseRpcUrl(url);
    if (!parsed) return;
    writeStorage(RPC_KEY, parsed);
    if (networkOfUrl(parsed) === "custom") {
      writeRpcCookie(parsed);
      // The server allows the new RPC in connect-src on the next load.
      if (new URL(parsed).protocol === "http:") {
        window.location.reload();
        return;
      }
    } else {
      writeRpcCookie(null);
    }
    setRpcUrl(parsed);
  }, []);

  const connect = useCallback(async (target: Wallet) => {
    setConnecting(true);
    setConnectError(null);
    try {
      const accounts = await connectWallet(target, false);
      const first = accounts[0];
      if (!first) throw new SolanaToolError("notConnected", "the wallet shared no account");
      setWallet(target);
      setAccount(first);
      writeStorage(WALLET_KEY, target.name);
    } catch (error) {
      setConnectError(classifyError(error));
    } finally {
      setConnecting(false);
    }
  }, []);

  const disconnect = useCallback(async () => {
    const current = wallet;
    setWallet(null);
    setAccount(null);
    writeStorage(WALLET_KEY, null);
    if (current) await disconnectWallet(current).catch(() => {});
  }, [wallet]);

  // One client per URL: pages reload their data when the RPC changes, not when the wallet does.
  const rpc = useMemo(() => rpcFor(rpcUrl), [rpcUrl]);

  const value = useMemo<SolanaState>(() => {
    const network = networkOfUrl(rpcUrl);
    return {
      rpcUrl,
      network,
      chain: CHAIN[network],
      rpc,
      chooseRpc,
      wallets,
      wallet,
      account,
      address: account ? (account.address as Address) : null,
      connecting,
      connectError,
      connect,
      disconnect,
    };
  }, [rpcUrl, rpc, chooseRpc, wallets, wallet, account, connecting, connectError, connect, disconnect]);

  return <SolanaContext.Provider value={value}>{children}</SolanaContext.Provider>;
}

export { PUBLIC_RPC };
