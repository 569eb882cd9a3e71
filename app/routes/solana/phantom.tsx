import {
  type Address,
  createNoopSigner,
  getPublicKeyFromAddress,
  type SignatureBytes,
  verifySignature,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { parseAddress, shortAddress } from "../../lib/solana/address.ts";
import { formatAmount, parseAmount, SOL_DECIMALS } from "../../lib/solana/amount.ts";
import type { TokenAccountInfo } from "../../lib/solana/close-accounts.ts";
import { compileUnsignedTransaction } from "../../lib/solana/pack.ts";
import { solanaTitle } from "../../solana/i18n.ts";
import {
  bytesToBase64,
  latestBlockhash,
  loadTokenAccounts,
  messageFee,
  sendWire,
  simulate,
  waitForOutcomes,
  wireBase64,
  wireBytes,
} from "../../solana/rpc.ts";
import { useSolana } from "../../solana/solana-context.tsx";
import { errorMessage, Status, sol, TxList, type TxProgress } from "../../solana/ui.tsx";
import { signMessage, signTransactions } from "../../solana/wallet.ts";
import type { Route } from "./+types/phantom";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, solanaTitle(matches, "phantom"), [NOINDEX]);
}

export default function PhantomPage() {
  const { t } = useTranslation("solana");
  const { wallets, wallet, account, address, connect, connecting, rpc } = useSolana();
  const phantom = wallets?.find((w) => w.name === "Phantom") ?? null;
  const [balance, setBalance] = useState<bigint | null>(null);
  const [tokens, setTokens] = useState<TokenAccountInfo[]>([]);
  const [loadStatus, setLoadStatus] = useState({ message: "", error: false });

  const load = useCallback(async () => {
    if (!address) return;
    try {
      const [{ value }, list] = await Promise.all([
        rpc.getBalance(address, { commitment: "confirmed" }).send(),
        loadTokenAccounts(rpc, address),
      ]);
      setBalance(value);
      setTokens(list);
      setLoadStatus({ message: "", error: false });
    } catch (error) {
      setLoadStatus({ message: t("rpcError", { error: errorMessage(error) }), error: true });
    }
  }, [rpc, address, t]);

  useEffect(() => {
    setBalance(null);
    setTokens([]);
    void load();
  }, [load]);

  return (
    <section aria-labelledby="phantom-title" className="space-y-6">
      <h1 id="phantom-title" className="text-2xl font-bold">
        {t("phantom.title")}
      </h1>
      {wallets === null ? (
        <p>{t("wallet.looking")}</p>
      ) : !phantom ? (
        <p>
          {t("phantom.notFound")}{" "}
          <a href="https://phantom.app/download" target="_blank" rel="noreferrer" className="underline">
            {t("phantom.download")}
          </a>
        </p>
      ) : wallet?.name !== "Phantom" ? (
        <button
          type="button"
          disabled={connecting}
          className="rounded bg-zinc-900 px-4 py-2 text-white dark:bg-zinc-100 dark:text-zinc-900"
          onClick={() => void connect(phantom)}
        >
          {t("wallet.connect", { wallet: "Phantom" })}
        </button>
      ) : null}
      {address && wallet && account && (
        <>
          <div className="space-y-1">
            <h2 className="text-lg font-semibold">{t("phantom.balances")}</h2>
            <p>
              {t("phantom.address")} <code className="break-all">{address}</code>
            </p>
            <p data-testid="sol-balance">
              {t("phantom.solBalance")} {balance === null ? "…" : t("sol", { amount: sol(balance) })}
            </p>
            {tokens.length > 0 && (
              <table className="text-left text-sm" data-testid="token-balances">
                <thead>
                  <tr>
                    <th scope="col">{t("close.mint")}</th>
                    <th scope="col">{t("phantom.amount")}</th>
                  </tr>
                </thead>
                <tbody>
                  {tokens.map((tok) => (
                    <tr key={tok.address}>
                      <td className="font-mono" title={tok.mint}>
                        {shortAddress(tok.mint, 6)}
                      </td>
                      <td>{tok.amount.toString()}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <Status message={loadStatus.message} error={loadStatus.error} />
          </div>
          <SignMessage />
          <SendSol onSent={() => void load()} />
        </>
      )}
    </section>
  );
}

function SignMessage() {
  const { t } = useTranslation("solana");
  const { wallet, account, address } = useSolana();
  const [text, setText] = useState("");
  const [result, setResult] = useState({ message: "", error: false });
  return (
    <form
      className="space-y-2"
      aria-labelledby="sign-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (!wallet || !account || !address) return;
        const bytes = new TextEncoder().encode(text);
        void (async () => {
          try {
            const { signature, signedMessage } = await signMessage(wallet, account, bytes);
            const key = await getPublicKeyFromAddress(address as Address);
            const valid = await verifySignature(key, signature as SignatureBytes, signedMessage);
            setResult({
              message: valid
                ? t("phantom.signatureValid", { signature: bytesToBase64(signature) })
                : t("phantom.signatureInvalid"),
              error: !valid,
            });
          } catch (error) {
            setResult({ message: t("tx.error", { error: errorMessage(error) }), error: true });
          }
        })();
      }}
    >
      <h2 id="sign-title" className="text-lg font-semibold">
        {t("phantom.signTitle")}
      </h2>
      <label className="flex flex-col gap-1">
        <span>{t("phantom.message")}</span>
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          required
          className="rounded border border-zinc-300 bg-white p-2 dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      <button type="submit" className="rounded border border-zinc-400 px-3 py-1">
        {t("phantom.sign")}
      </button>
      <Status message={result.message} error={result.error} />
    </form>
  );
}

function SendSol({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation("solana");
  const { wallet, account, address, rpc, chain } = useSolana();
  const [to, setTo] = useState("");
  const [amount, setAmount] = useState("");
  const [fee, setFee] = useState<bigint | null>(null);
  const [status, setStatus] = useState({ message: "", error: false });
  const [progress, setProgress] = useState<TxProgress[]>([]);
  return (
    <form
      className="space-y-2"
      aria-labelledby="send-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (!wallet || !account || !address) return;
        const recipient = parseAddress(to);
        if (!recipient.ok) return setStatus({ message: t(`codes.${recipient.code}`), error: true });
        const lamports = parseAmount(amount, SOL_DECIMALS);
        if (!lamports.ok) return setStatus({ message: t(`codes.${lamports.code}`), error: true });
        void (async () => {
          try {
            const lifetime = await latestBlockhash(rpc);
            const ix = getTransferSolInstruction({
              source: createNoopSigner(address),
              destination: recipient.address,
              amount: lamports.value,
            });
            const tx = compileUnsignedTransaction([ix], { feePayer: address }, lifetime);
            const item: TxProgress = {
              label: t("tx.label", { n: 1, total: 1 }),
              state: "simulating",
              signature: null,
              error: null,
            };
            setProgress([item]);
            const [sim, networkFee] = await Promise.all([simulate(rpc, tx), messageFee(rpc, tx)]);
            setFee(networkFee);
            if (sim.error) {
              setProgress([{ ...item, state: "failed", error: sim.error }]);
              return setStatus({ message: t("tx.simulationFailed", { error: sim.error }), error: true });
            }
            setProgress([{ ...item, state: "signing" }]);
            setStatus({ message: t("tx.confirmInWallet", { count: 1 }), error: false });
            const [signed] = await signTransactions(wallet, account, [wireBytes(tx)], chain);
            if (!signed) throw new Error("not signed");
            const signature = await sendWire(rpc, wireBase64(signed));
            setProgress([{ ...item, state: "confirming", signature }]);
            await waitForOutcomes(
              rpc,
              [{ signature, lastValidBlockHeight: lifetime.lastValidBlockHeight }],
              (_s, o) => {
                setProgress([{ ...item, signature, state: o.kind, error: o.kind === "failed" ? o.error : null }]);
                setStatus({ message: t(`tx.state.${o.kind}`), error: o.kind !== "confirmed" });
              },
            );
            onSent();
          } catch (error) {
            setStatus({ message: t("tx.error", { error: errorMessage(error) }), error: true });
          }
        })();
      }}
    >
      <h2 id="send-title" className="text-lg font-semibold">
        {t("phantom.sendTitle")}
      </h2>
      <label className="flex flex-col gap-1">
        <span>{t("phantom.recipient")}</span>
        <input
          value={to}
          onChange={(e) => setTo(e.target.value)}
          required
          className="rounded border border-zinc-300 bg-white px-2 py-1 font-mono dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      <label className="flex flex-col gap-1">
        <span>{t("phantom.amountSol")}</span>
        <input
          value={amount}
          inputMode="decimal"
          onChange={(e) => setAmount(e.target.value)}
          required
          className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      <button type="submit" className="rounded border border-zinc-400 px-3 py-1">
        {t("phantom.send")}
      </button>
      {fee !== null && <p className="text-sm">{t("phantom.fee", { amount: formatAmount(fee, SOL_DECIMALS) })}</p>}
      <Status message={status.message} error={status.error} />
      <TxList items={progress} />
    </form>
  );
}
