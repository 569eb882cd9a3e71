import { useTranslation } from "react-i18next";
import { formatAmount, SOL_DECIMALS } from "../lib/solana/amount.ts";
import { explorerTxUrl } from "../lib/solana/network.ts";
import { useSolana } from "./solana-context.tsx";

export function sol(lamports: bigint): string {
  return formatAmount(lamports, SOL_DECIMALS);
}

export type TxState = "simulating" | "signing" | "sending" | "confirming" | "confirmed" | "failed" | "expired";

export interface TxProgress {
  label: string;
  state: TxState;
  signature: string | null;
  error: string | null;
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
            {item.error && <span className="block text-red-700 dark:text-red-400">{item.error}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A status line for screen readers and everyone else. */
export function Status({ message, error = false }: { message: string; error?: boolean }) {
  return (
    <p
      role={error ? "alert" : "status"}
      aria-live={error ? "assertive" : "polite"}
      className={`min-h-5 text-sm ${error ? "text-red-700 dark:text-red-400" : ""}`}
    >
      {message}
    </p>
  );
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
