import { type ReactNode, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { shortAddress } from "../lib/solana/address.ts";
import { formatAmount, SOL_DECIMALS } from "../lib/solana/amount.ts";
import { type ClassifiedError, classifyError, classifyTransactionError, type ErrorKind } from "../lib/solana/errors.ts";
import { explorerTxUrl } from "../lib/solana/network.ts";
import { formatTokenAmount, type TokenInfo, tokenTitle } from "../lib/solana/token-metadata.ts";
import { useSolana } from "./solana-context.tsx";

export function sol(lamports: bigint): string {
  return formatAmount(lamports, SOL_DECIMALS);
}

export type TxState = "simulating" | "signing" | "sending" | "confirming" | "confirmed" | "failed" | "expired";

export interface TxProgress {
  label: string;
  state: TxState;
  signature: string | null;
  error: Failure | null;
}

/** A failure as shown: a sentence in the page's language and the raw cause (English) for details. */
export interface Failure {
  kind: ErrorKind;
  message: string;
  detail: string;
}

/**
 * Turns thrown errors (`error`) and the RPC's transaction errors (`tx`, from a simulation or a
 * signature status) into failures in the page's language.
 */
export function useFailures(): {
  error(error: unknown, logs?: readonly string[]): Failure;
  tx(err: unknown, logs?: readonly string[]): Failure;
} {
  const { t } = useTranslation("solana");
  return useMemo(() => {
    const shown = (c: ClassifiedError): Failure => ({ kind: c.kind, message: t(`errors.${c.kind}`), detail: c.detail });
    return {
      error: (error, logs) => shown(classifyError(error, logs)),
      tx: (err, logs) => shown(classifyTransactionError(err, logs)),
    };
  }, [t]);
}

/** The raw cause after a localized sentence: smaller, and marked as English. */
export function Details({ detail }: { detail: string | undefined }) {
  const { t } = useTranslation("solana");
  if (!detail) return null;
  return (
    <>
      {" "}
      <span className="block text-xs">
        {t("errors.details")} <span lang="en">{detail}</span>
      </span>
    </>
  );
}

/** Per-transaction progress, signature and explorer link, announced politely. */
export function TxList({ items }: { items: readonly TxProgress[] }) {
  const { t } = useTranslation("solana");
  const { rpcUrl } = useSolana();
  if (items.length === 0) return null;
  const done = items.filter((i) => i.state === "confirmed" || i.state === "failed" || i.state === "expired").length;
  return (
    <div className="space-y-2">
      <progress className="w-full" max={items.length} value={done} aria-label={t("tx.progress")} />
      <ol className="space-y-1 text-sm" data-testid="tx-list">
        {items.map((item) => (
          <li key={item.label} data-state={item.state}>
            <span className="font-medium">{item.label}</span>: {t(`tx.state.${item.state}`)}
            {item.signature && (
              <>
                {" "}
                <a
                  href={explorerTxUrl(item.signature, rpcUrl)}
                  target="_blank"
                  rel="noreferrer"
                  className="font-mono underline"
                >
                  {item.signature.slice(0, 12)}…
                </a>
              </>
            )}
            {item.error && (
              <span className="block text-red-700 dark:text-red-400">
                {item.error.message}
                <Details detail={item.error.detail} />
              </span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A status line for screen readers and everyone else. */
export function Status({ message, error = false, detail }: { message: string; error?: boolean; detail?: string }) {
  return (
    <p
      role={error ? "alert" : "status"}
      aria-live={error ? "assertive" : "polite"}
      className={`min-h-5 text-sm ${error ? "text-red-700 dark:text-red-400" : ""}`}
    >
      {message}
      <Details detail={detail} />
    </p>
  );
}

/** What a status line holds: a message, whether it is an error, and the raw cause of a failure. */
export interface StatusState {
  message: string;
  error: boolean;
  detail?: string;
}

/** The heading of the /solana page shown (rendered by the layout, first on the page). */
export const TOOL_TITLE_ID = "solana-tool-title";

/** Each /solana page names its heading and its one-line purpose in its route `handle`. */
export interface SolanaToolHandle {
  solanaTool: {
    title: "title" | "close.title" | "batch.title" | "phantom.title" | "walletConnect.title";
    intro: "home.intro" | "close.intro" | "batch.intro" | "phantom.intro" | "walletConnect.intro";
  };
}

export function isSolanaToolHandle(handle: unknown): handle is SolanaToolHandle {
  return typeof handle === "object" && handle !== null && "solanaTool" in handle;
}

/** A /solana page's tool, under the heading the layout shows first (TOOL_TITLE_ID). */
export function ToolPage({ className = "space-y-4", children }: { className?: string; children?: ReactNode }) {
  return (
    <section aria-labelledby={TOOL_TITLE_ID} className={className}>
      {children}
    </section>
  );
}

/** A token as a reader knows it: its name and symbol when the mint carries them, always with the short mint. */
export function TokenLabel({ mint, info }: { mint: string; info: TokenInfo | undefined }) {
  const title = tokenTitle(info?.names ?? null);
  return (
    <>
      {title && <span className="mr-1">{title}</span>}
      <span className="font-mono" title={mint}>
        {shortAddress(mint, 6)}
      </span>
    </>
  );
}

/** A token amount in whole tokens in the page's number format, or base units while the decimals are unknown. */
export function useTokenAmount(): (amount: bigint, info: TokenInfo | undefined) => string {
  const { i18n } = useTranslation();
  const locale = i18n.language === "zh" ? "zh-CN" : "en";
  return (amount, info) => (info ? formatTokenAmount(amount, info.decimals, locale) : amount.toString());
}
