import { getBase58Decoder } from "@solana/kit";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { shortAddress } from "../../lib/solana/address.ts";
import { type CloseSelection, selectClosable, type TokenAccountInfo } from "../../lib/solana/close-accounts.ts";
import { chosenPrice } from "../../lib/solana/fees.ts";
import { compileUnsignedTransaction } from "../../lib/solana/pack.ts";
import { closeFees, usePreparedClose } from "../../solana/close-prepare.ts";
import { DEFAULT_FEE_CHOICE, FeePicker } from "../../solana/fee-picker.tsx";
import {
  latestBlockhash,
  loadTokenAccounts,
  sendWire,
  simulate,
  waitForOutcomes,
  wireBase64,
  wireBytes,
} from "../../solana/rpc.ts";
import { useSolana } from "../../solana/solana-context.tsx";
import { useTokenInfos } from "../../solana/token-infos.ts";
import {
  Details,
  Status,
  type StatusState,
  sol,
  TokenLabel,
  ToolPage,
  TxList,
  type TxProgress,
  useFailures,
  useTokenAmount,
} from "../../solana/ui.tsx";
import { FEATURES, hasFeature, signAndSendTransaction, signTransactions } from "../../solana/wallet.ts";

const base58 = getBase58Decoder();

export default function CloseToken() {
  const { t } = useTranslation("solana");
  const { rpc, address, wallet, account, chain } = useSolana();
  const [accounts, setAccounts] = useState<TokenAccountInfo[] | null>(null);
  const [selection, setSelection] = useState<CloseSelection | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const fail = useFailures();
  const [status, setStatus] = useState<StatusState>({ message: "", error: false });
  const [progress, setProgress] = useState<TxProgress[]>([]);
  const [busy, setBusy] = useState(false);
  /** What the last close did, kept above the list reloaded after it. */
  const [outcome, setOutcome] = useState<{ accounts: number; rent: bigint } | null>(null);
  const infos = useTokenInfos(rpc, accounts?.map((a) => a.mint) ?? []);
  const picked = selection ? selection.closable.filter((c) => chosen.has(c.account.address)).map((c) => c.account) : [];
  const { prepared, error: prepareError } = usePreparedClose(rpc, address, picked);
  const [fee, setFee] = useState(DEFAULT_FEE_CHOICE);
  const price = prepared ? chosenPrice(fee.level, prepared.fees, fee.custom) : null;
  const fees = prepared && price !== null ? closeFees(prepared, price) : null;
  const failure = prepared?.failure ? fail.tx(prepared.failure.err, prepared.failure.logs) : null;
  const tokenAmount = useTokenAmount();

  const load = useCallback(async () => {
    if (!address) return;
    setStatus({ message: t("close.loading"), error: false });
    try {
      const list = await loadTokenAccounts(rpc, address);
      const sel = selectClosable(list, address);
      setAccounts(list);
      setSelection(sel);
      setChosen(new Set(sel.closable.map((c) => c.account.address)));
      setStatus({ message: t("close.loaded", { count: sel.closable.length }), error: false });
    } catch (error) {
      const failure = fail.error(error);
      setStatus({ message: t("rpcError", { error: failure.message }), detail: failure.detail, error: true });
    }
  }, [rpc, address, t, fail]);

  useEffect(() => {
    setAccounts(null);
    setSelection(null);
    setProgress([]);
    setOutcome(null);
    void load();
  }, [load]);

  async function closeSelected() {
    if (!address || !wallet || !account || !prepared || prepared.failure || price === null) return;
    const { plans, unitLimits } = prepared;
    if (plans.length === 0) return;
    setBusy(true);
    setOutcome(null);
    try {
      const label = (i: number) => t("tx.label", { n: i + 1, total: plans.length });
      let items: TxProgress[] = plans.map((_, i) => ({
        label: label(i),
        state: "simulating",
        signature: null,
        error: null,
      }));
      const update = (i: number, patch: Partial<TxProgress>) => {
        items = items.map((item, j) => (j === i ? { ...item, ...patch } : item));
        setProgress(items);
      };
      setProgress(items);
      setStatus({ message: t("tx.simulating"), error: false });
      const lifetime = await latestBlockhash(rpc);
      // The limits and price shown under the list are the ones signed.
      const txs = plans.map((p, i) =>
        compileUnsignedTransaction(
          p.instructions,
          { feePayer: address, computeBudget: { unitLimit: unitLimits[i] ?? 0, unitPrice: price } },
          lifetime,
        ),
      );
      // Every transaction is simulated before the wallet is asked to sign anything.
      for (const [i, tx] of txs.entries()) {
        const result = await simulate(rpc, tx);
        if (result.error) {
          const failure = fail.tx(result.err, result.logs);
          update(i, { state: "failed", error: failure });
          setStatus({
            message: t("tx.simulationFailed", { error: failure.message }),
            detail: failure.detail,
            error: true,
          });
          return;
        }
        update(i, { state: "signing" });
      }
      const sent: { signature: string; lastValidBlockHeight: bigint; index: number }[] = [];
      if (hasFeature(wallet, FEATURES.signTransaction)) {
        setStatus({ message: t("tx.confirmInWallet", { count: txs.length }), error: false });
        const signed = await signTransactions(
          wallet,
          account,
          txs.map((tx) => wireBytes(tx)),
          chain,
        );
        for (const [i, bytes] of signed.entries()) {
          update(i, { state: "sending" });
          try {
            const signature = await sendWire(rpc, wireBase64(bytes));
            update(i, { state: "confirming", signature });
            sent.push({ signature, lastValidBlockHeight: lifetime.lastValidBlockHeight, index: i });
          } catch (error) {
            update(i, { state: "failed", error: fail.error(error) });
          }
        }
      } else if (hasFeature(wallet, FEATURES.signAndSendTransaction) && chain) {
        // Wallets that only sign-and-send: one prompt per transaction, the wallet sends.
        for (const [i, tx] of txs.entries()) {
          setStatus({ message: t("tx.confirmInWallet", { count: 1 }), error: false });
          const signature = base58.decode(await signAndSendTransaction(wallet, account, wireBytes(tx), chain));
          update(i, { state: "confirming", signature });
          sent.push({ signature, lastValidBlockHeight: lifetime.lastValidBlockHeight, index: i });
        }
      } else {
        setStatus({ message: t("tx.cannotSign"), error: true });
        return;
      }
      setStatus({ message: t("tx.confirming"), error: false });
      await waitForOutcomes(rpc, sent, (signature, outcome) => {
        const i = sent.find((s) => s.signature === signature)?.index ?? -1;
        if (outcome.kind === "failed") update(i, { state: "failed", error: fail.tx(outcome.err) });
        else update(i, { state: outcome.kind });
      });
      const ok = items.filter((i) => i.state === "confirmed").length;
      const landed = plans.filter((_, i) => items[i]?.state === "confirmed");
      setOutcome({
        accounts: landed.reduce((n, p) => n + p.accounts.length, 0),
        rent: landed.reduce((sum, p) => sum + p.rent, 0n),
      });
      await load();
      setStatus({ message: t("tx.finished", { ok, total: items.length }), error: ok !== items.length });
    } catch (error) {
      const failure = fail.error(error);
      setStatus({ message: t("tx.error", { error: failure.message }), detail: failure.detail, error: true });
    } finally {
      setBusy(false);
    }
  }

  const chosenRent = selection
    ? selection.closable.filter((c) => chosen.has(c.account.address)).reduce((s, c) => s + c.rent, 0n)
    : 0n;

  return (
    <ToolPage>
      {!address ? (
        <p>{t("connectFirst")}</p>
      ) : (
        <>
          <Status message={status.message} error={status.error} detail={status.detail} />
          {outcome && (
            <p data-testid="close-outcome" className="font-medium">
              {t("close.outcome", { count: outcome.accounts, amount: sol(outcome.rent) })}
            </p>
          )}
          {selection && accounts && (
            <>
              <h2 className="text-lg font-semibold">{t("close.closable", { count: selection.closable.length })}</h2>
              {selection.closable.length === 0 ? (
                <p>{t("close.nothing")}</p>
              ) : (
                <table className="w-full text-left text-sm" data-testid="closable">
                  <thead>
                    <tr>
                      <th scope="col">{t("close.select")}</th>
                      <th scope="col">{t("close.account")}</th>
                      <th scope="col">{t("close.mint")}</th>
                      <th scope="col">{t("close.rent")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {selection.closable.map(({ account: acc, rent }) => (
                      <tr key={acc.address}>
                        <td>
                          <input
                            type="checkbox"
                            checked={chosen.has(acc.address)}
                            aria-label={t("close.selectAccount", { account: acc.address })}
                            onChange={(e) => {
                              const next = new Set(chosen);
                              if (e.target.checked) next.add(acc.address);
                              else next.delete(acc.address);
                              setChosen(next);
                            }}
                          />
                        </td>
                        <td className="font-mono" title={acc.address}>
                          {shortAddress(acc.address, 6)}
                        </td>
                        <td>
                          <TokenLabel mint={acc.mint} info={infos.get(acc.mint)} />
                        </td>
                        <td>{t("sol", { amount: sol(rent) })}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <th scope="row" colSpan={3}>
                        {t("close.total")}
                      </th>
                      <td data-testid="close-total">{t("sol", { amount: sol(chosenRent) })}</td>
                    </tr>
                  </tfoot>
                </table>
              )}
              {picked.length > 0 && !prepared && !prepareError && <p>{t("close.feesPending")}</p>}
              {prepareError !== null && (
                <p role="alert" className="text-red-700 dark:text-red-400">
                  {t("rpcError", { error: fail.error(prepareError).message })}
                </p>
              )}
              {failure && (
                <p role="alert" className="text-red-700 dark:text-red-400">
                  {t("tx.simulationFailed", { error: failure.message })}
                  <Details detail={failure.detail} />
                </p>
              )}
              {prepared && picked.length > 0 && !failure && (
                <>
                  <FeePicker estimate={prepared.fees} choice={fee} onChange={setFee} disabled={busy} />
                  {fees && (
                    <p data-testid="close-fees">
                      {t("close.fees", {
                        amount: sol(fees.network + fees.priority),
                        network: sol(fees.network),
                        priority: sol(fees.priority),
                      })}
                    </p>
                  )}
                </>
              )}
              <button
                type="button"
                disabled={busy || chosen.size === 0 || !prepared || failure !== null || price === null}
                onClick={() => void closeSelected()}
                className="rounded bg-zinc-900 px-4 py-2 text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
              >
                {t("close.action", { count: chosen.size })}
              </button>
              <TxList items={progress} />
              {selection.kept.length > 0 && (
                <>
                  <h2 className="text-lg font-semibold">{t("close.kept", { count: selection.kept.length })}</h2>
                  <ul className="text-sm">
                    {selection.kept.map(({ account: acc, reason }) => (
                      <li key={acc.address}>
                        <span className="font-mono" title={acc.address}>
                          {shortAddress(acc.address, 6)}
                        </span>{" "}
                        (<TokenLabel mint={acc.mint} info={infos.get(acc.mint)} />
                        {acc.amount > 0n && `, ${tokenAmount(acc.amount, infos.get(acc.mint))}`}):{" "}
                        {t(`reasons.${reason}`)}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </>
      )}
    </ToolPage>
  );
}
