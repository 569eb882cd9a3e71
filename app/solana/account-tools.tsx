/**
 * The account view and tools every wallet page shares (a Wallet Standard wallet or the
 * WalletConnect signer behind the same interface): SOL and token balances, sign a message,
 * send SOL.
 */

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
import { parseAddress } from "../lib/solana/address.ts";
import { formatAmount, parseAmount, SOL_DECIMALS } from "../lib/solana/amount.ts";
import type { TokenAccountInfo } from "../lib/solana/close-accounts.ts";
import { SolanaToolError } from "../lib/solana/errors.ts";
import { compileUnsignedTransaction } from "../lib/solana/pack.ts";
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
} from "./rpc.ts";
import { useSolana } from "./solana-context.tsx";
import { useTokenInfos } from "./token-infos.ts";
import {
  Status,
  type StatusState,
  sol,
  TokenLabel,
  TxList,
  type TxProgress,
  useFailures,
  useTokenAmount,
} from "./ui.tsx";
import { signMessage, signTransactions, type Wallet, type WalletAccount } from "./wallet.ts";

export interface WalletProps {
  wallet: Wallet;
  account: WalletAccount;
  address: Address;
}

/** SOL and token balances of an address on the chosen RPC; `refresh` changes to load again. */
export function AccountBalances({ address, refresh = 0 }: { address: Address; refresh?: number }) {
  const { t } = useTranslation("solana");
  const { rpc } = useSolana();
  const [balance, setBalance] = useState<bigint | null>(null);
  const [tokens, setTokens] = useState<TokenAccountInfo[]>([]);
  const infos = useTokenInfos(
    rpc,
    tokens.map((tok) => tok.mint),
  );
  const tokenAmount = useTokenAmount();
  const [loadStatus, setLoadStatus] = useState<StatusState>({ message: "", error: false });
  const fail = useFailures();

  const load = useCallback(async () => {
    try {
      const [{ value }, list] = await Promise.all([
        rpc.getBalance(address, { commitment: "confirmed" }).send(),
        loadTokenAccounts(rpc, address),
      ]);
      setBalance(value);
      setTokens(list);
      setLoadStatus({ message: "", error: false });
    } catch (error) {
      const failure = fail.error(error);
      setLoadStatus({ message: t("rpcError", { error: failure.message }), detail: failure.detail, error: true });
    }
  }, [rpc, address, t, fail]);

  useEffect(() => {
    setBalance(null);
    setTokens([]);
    void load();
  }, [load]);

  // Reload after a payment without blanking what is shown.
  useEffect(() => {
    if (refresh > 0) void load();
  }, [refresh, load]);

  return (
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
                <td>
                  <TokenLabel mint={tok.mint} info={infos.get(tok.mint)} />
                </td>
                <td>{tokenAmount(tok.amount, infos.get(tok.mint))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Status message={loadStatus.message} error={loadStatus.error} detail={loadStatus.detail} />
    </div>
  );
}

/** Signs a message with the wallet and checks the signature in this browser. */
export function SignMessage({ wallet, account, address }: WalletProps) {
  const { t } = useTranslation("solana");
  const fail = useFailures();
  const [text, setText] = useState("");
  const [result, setResult] = useState<StatusState>({ message: "", error: false });
  return (
    <form
      className="space-y-2"
      aria-labelledby="sign-title"
      onSubmit={(event) => {
        event.preventDefault();
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
            const failure = fail.error(error);
            setResult({ message: t("tx.error", { error: failure.message }), detail: failure.detail, error: true });
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
      <Status message={result.message} error={result.error} detail={result.detail} />
    </form>
  );
}

/** Sends SOL: simulation and fee first, then one wallet prompt, then confirmation with an explorer link. */
export function SendSol({
  wallet,
  account,
  address,
  chain,
  onSent,
}: WalletProps & { chain: string | undefined; onSent: () => void }) {
  const { t } = useTranslation("solana");
  const { rpc } = useSolana();
  const [to, setTo] = useState("");
  const [amount, setAmount] = useState("");
  const fail = useFailures();
  const [fee, setFee] = useState<bigint | null>(null);
  const [status, setStatus] = useState<StatusState>({ message: "", error: false });
  const [progress, setProgress] = useState<TxProgress[]>([]);
  return (
    <form
      className="space-y-2"
      aria-labelledby="send-title"
      onSubmit={(event) => {
        event.preventDefault();
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
              const failure = fail.tx(sim.err, sim.logs);
              setProgress([{ ...item, state: "failed", error: failure }]);
              return setStatus({
                message: t("tx.simulationFailed", { error: failure.message }),
                detail: failure.detail,
                error: true,
              });
            }
            setProgress([{ ...item, state: "signing" }]);
            setStatus({ message: t("tx.confirmInWallet", { count: 1 }), error: false });
            const [signed] = await signTransactions(wallet, account, [wireBytes(tx)], chain);
            if (!signed) throw new SolanaToolError("unsupported", "the wallet returned no signed transaction");
            const signature = await sendWire(rpc, wireBase64(signed));
            setProgress([{ ...item, state: "confirming", signature }]);
            await waitForOutcomes(
              rpc,
              [{ signature, lastValidBlockHeight: lifetime.lastValidBlockHeight }],
              (_s, o) => {
                setProgress([
                  { ...item, signature, state: o.kind, error: o.kind === "failed" ? fail.tx(o.err) : null },
                ]);
                setStatus({ message: t(`tx.state.${o.kind}`), error: o.kind !== "confirmed" });
              },
            );
            onSent();
          } catch (error) {
            const failure = fail.error(error);
            // The transaction shows the refusal too, not the step it was at ("waiting for the wallet").
            setProgress((items) =>
              items.map((item) =>
                item.state === "confirmed" || item.state === "failed" || item.state === "expired"
                  ? item
                  : { ...item, state: "failed", error: failure },
              ),
            );
            setStatus({ message: t("tx.error", { error: failure.message }), detail: failure.detail, error: true });
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
      <Status message={status.message} error={status.error} detail={status.detail} />
      <TxList items={progress} />
    </form>
  );
}
