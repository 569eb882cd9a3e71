import { useEffect, useMemo, useReducer, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TokenAccountInfo } from "../../lib/solana/close-accounts.ts";
import { payableRows } from "../../lib/solana/csv.ts";
import { chosenPrice } from "../../lib/solana/fees.ts";
import { createJob, isJobFinished, type Job, rowStatuses } from "../../lib/solana/job.ts";
import { tokenOptionLabel } from "../../lib/solana/token-metadata.ts";
import { type CheckedBatch, checkBatch, costAt } from "../../solana/batch-check.ts";
import { CheckedRows, CostSummary, decimalsOf, JobProgress, JobRows, PastBatches } from "../../solana/batch-parts.tsx";
import { runJob, SendError, SimulationError } from "../../solana/batch-runner.ts";
import { type BatchDraft, batchReducer, initialBatchState } from "../../solana/batch-state.ts";
import { DEFAULT_FEE_CHOICE, FeePicker } from "../../solana/fee-picker.tsx";
import { createIndexedDbJobStore } from "../../solana/job-store.ts";
import { loadTokenAccounts } from "../../solana/rpc.ts";
import { useSolana } from "../../solana/solana-context.tsx";
import { useTokenInfos } from "../../solana/token-infos.ts";
import { Details, Status, type StatusState, ToolPage, useFailures } from "../../solana/ui.tsx";

const primary = "rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900";
const field = "rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";

export default function TransferBatch() {
  const { t, i18n } = useTranslation("solana");
  const { rpc, address, wallet, account, chain } = useSolana();
  const store = useMemo(() => (typeof indexedDB === "undefined" ? null : createIndexedDbJobStore()), []);
  const [state, dispatch] = useReducer(batchReducer<CheckedBatch>, undefined, initialBatchState<CheckedBatch>);
  const { draft, checked, job, running } = state;
  const [tokens, setTokens] = useState<TokenAccountInfo[]>([]);
  const [unfinished, setUnfinished] = useState<Job | null>(null);
  const [status, setStatus] = useState<StatusState>({ message: "", error: false });
  const [twice, setTwice] = useState<number[]>([]);
  const [fee, setFee] = useState(DEFAULT_FEE_CHOICE);
  const fail = useFailures();
  const infos = useTokenInfos(
    rpc,
    tokens.map((a) => a.mint),
  );
  const locale = i18n.language === "zh" ? "zh-CN" : "en";
  const edit = (patch: Partial<BatchDraft>) => dispatch({ type: "edit", patch });

  useEffect(() => {
    if (!store) return;
    void store.list().then((jobs) => {
      const open = jobs.filter((j) => !isJobFinished(j)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      setUnfinished(open[0] ?? null);
    });
  }, [store]);

  useEffect(() => {
    if (!address) return;
    loadTokenAccounts(rpc, address)
      .then((list) => setTokens(list.filter((a) => a.amount > 0n)))
      .catch(() => setTokens([]));
  }, [rpc, address]);

  async function check() {
    if (!address || running) return;
    dispatch({ type: "checking" });
    setStatus({ message: "", error: false });
    try {
      const result = await checkBatch(rpc, address, draft, tokens);
      if (result.ok) dispatch({ type: "checked", checked: result.checked });
      else setStatus({ message: t(result.key), error: true });
    } catch (error) {
      const failure = fail.error(error);
      setStatus({ message: t("rpcError", { error: failure.message }), detail: failure.detail, error: true });
    }
  }

  async function send(target: Job, mode: "start" | "resume") {
    if (!store || !wallet || !account) return;
    if (target.sender !== address) {
      setStatus({ message: t("batch.wrongSender", { address: target.sender }), error: true });
      return;
    }
    dispatch({ type: mode, job: target });
    setTwice([]);
    let latest = target;
    try {
      const done = await runJob(target, {
        rpc,
        store,
        wallet,
        account,
        chain,
        onJob: (progress) => {
          latest = progress;
          dispatch({ type: "progress", job: progress });
        },
        onLandedTwice: (i) => setTwice((list) => (list.includes(i) ? list : [...list, i])),
        onMessage: (code, count) => {
          const message =
            code === "signing"
              ? t("tx.confirmInWallet", { count: count ?? 0 })
              : code === "simulating"
                ? t("tx.simulating")
                : code === "confirming"
                  ? t("tx.confirming")
                  : t("tx.state.sending");
          setStatus({ message, error: false });
        },
      });
      const ok = done.txs.filter((tx) => tx.status === "confirmed").length;
      setStatus({
        message: t("tx.finished", { ok, total: done.txs.length }),
        error: rowStatuses(done).some((r) => r.status === "failed"),
      });
      setUnfinished((open) => (open?.id === done.id ? null : open));
    } catch (error) {
      if (error instanceof SimulationError) {
        const failure = fail.tx(error.err, error.logs);
        setStatus({
          message: t("tx.simulationFailed", { error: failure.message }),
          detail: failure.detail,
          error: true,
        });
      } else if (error instanceof SendError) {
        const failure = fail.error(error.cause);
        setStatus({
          message: t("tx.sendFailed", { n: error.txIndex + 1, error: failure.message }),
          detail: failure.detail,
          error: true,
        });
      } else {
        const failure = fail.error(error);
        setStatus({ message: t("tx.error", { error: failure.message }), detail: failure.detail, error: true });
      }
    } finally {
      // An interrupted job stays offered for resuming even after the reader moves on to another list.
      if (!isJobFinished(latest)) setUnfinished(latest);
      dispatch({ type: "stopped" });
    }
  }

  const price = checked ? chosenPrice(fee.level, checked.fees, fee.custom) : null;
  const priced = checked ? costAt(checked, price) : null;
  const simulationFailure = checked?.simulationFailure
    ? fail.tx(checked.simulationFailure.err, checked.simulationFailure.logs)
    : null;

  async function start() {
    if (!checked || !address || !store || !priced || price === null) return;
    const lines = new Map(checked.parsed.rows.map((r) => [r.index, r.line]));
    const newJob = createJob({
      id: crypto.randomUUID(),
      createdAt: new Date().toISOString(),
      sender: address,
      asset: checked.asset,
      rows: payableRows(checked.parsed).map((r) => ({ ...r, line: lines.get(r.index) ?? 0 })),
      // The limits and price shown in the cost summary are the ones every signing uses.
      txs: checked.plan.transactions.map((tx, i) => ({ ...tx, computeBudget: priced.budgets[i] ?? null })),
    });
    // Saved before anything is signed or sent.
    await store.put(newJob);
    setStatus({ message: t("batch.saved"), error: false });
    await send(newJob, "start");
  }

  const parsed = checked?.parsed;
  const hasDup = parsed?.rows.some((r) => r.warnings.includes("row.duplicate")) ?? false;
  const hasOffCurve = parsed?.rows.some((r) => r.warnings.includes("row.offCurve")) ?? false;
  const blockingMint = checked?.mintIssues.some((c) => c !== "mint.transferFee") ?? false;
  const canSend =
    !!checked &&
    checked.parsed.ok &&
    checked.plan.transactions.length > 0 &&
    price !== null &&
    priced !== null &&
    priced.problems.length === 0 &&
    checked.simulationFailure === null &&
    checked.unitLimits.length === checked.plan.transactions.length &&
    checked.belowRent.length === 0 &&
    !blockingMint &&
    (!hasDup || state.confirmDup) &&
    (!hasOffCurve || state.confirmOffCurve) &&
    !running;

  return (
    <ToolPage>
      {unfinished && !running && job?.id !== unfinished.id && (
        <div className="space-y-2 rounded border border-zinc-400 p-3" data-testid="resume">
          <p>{t("batch.resumeFound", { date: unfinished.createdAt, rows: unfinished.rows.length })}</p>
          <div className="flex gap-2">
            <button
              type="button"
              disabled={!address}
              className={primary}
              onClick={() => void send(unfinished, "resume")}
            >
              {t("batch.resume")}
            </button>
            <button
              type="button"
              className="rounded border border-zinc-400 px-3 py-1"
              onClick={() => {
                void store?.delete(unfinished.id);
                setUnfinished(null);
              }}
            >
              {t("batch.discard")}
            </button>
          </div>
        </div>
      )}
      {!address ? (
        <p>{t("connectFirst")}</p>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            void check();
          }}
        >
          <fieldset className="space-y-1" disabled={running}>
            <legend className="font-semibold">{t("batch.asset")}</legend>
            <label className="mr-4">
              <input
                type="radio"
                name="asset"
                checked={draft.assetKind === "sol"}
                onChange={() => edit({ assetKind: "sol" })}
              />{" "}
              {t("batch.assetSol")}
            </label>
            <label>
              <input
                type="radio"
                name="asset"
                checked={draft.assetKind === "token"}
                onChange={() => edit({ assetKind: "token" })}
              />{" "}
              {t("batch.assetToken")}
            </label>
            {draft.assetKind === "token" && (
              <div className="flex flex-wrap gap-3">
                <label className="flex flex-col gap-1">
                  <span>{t("batch.tokenPick")}</span>
                  <select
                    value={draft.mintInput}
                    onChange={(e) => edit({ mintInput: e.target.value })}
                    className={field}
                  >
                    <option value="">—</option>
                    {tokens.map((a) => (
                      <option key={a.address} value={a.mint}>
                        {tokenOptionLabel(a.mint, a.amount, infos.get(a.mint), locale)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="flex flex-col gap-1">
                  <span>{t("batch.tokenMint")}</span>
                  <input
                    value={draft.mintInput}
                    onChange={(e) => edit({ mintInput: e.target.value })}
                    className={`w-96 font-mono ${field}`}
                  />
                </label>
              </div>
            )}
          </fieldset>
          <label className="flex flex-col gap-1">
            <span>{t("batch.csv")}</span>
            <textarea
              value={draft.text}
              readOnly={running}
              onChange={(e) => edit({ text: e.target.value })}
              rows={8}
              className={`p-2 font-mono text-sm ${field}`}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span>{t("batch.upload")}</span>
            <input
              type="file"
              disabled={running}
              accept=".csv,text/csv,text/plain"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void file.text().then((text) => edit({ text }));
              }}
            />
          </label>
          <button type="submit" disabled={running} className="rounded border border-zinc-400 px-3 py-1">
            {t("batch.check")}
          </button>
        </form>
      )}
      <Status message={status.message} error={status.error} detail={status.detail} />
      {checked?.mintIssues.map((code) => (
        <p key={code} role="alert" className="text-red-700 dark:text-red-400">
          {t(`codes.${code}`)}
        </p>
      ))}
      {parsed && checked && (
        <div className="space-y-3">
          {parsed.fileError && (
            <p role="alert" className="text-red-700 dark:text-red-400">
              {t(`codes.${parsed.fileError.code}`, { line: parsed.fileError.line ?? 0 })}
            </p>
          )}
          <p data-testid="rows-valid">
            {t("batch.rowsValid", {
              valid: parsed.rows.filter((r) => r.errors.length === 0).length,
              total: parsed.rows.length,
            })}
          </p>
          <ul className="text-sm text-red-700 dark:text-red-400" data-testid="row-errors">
            {parsed.rows.flatMap((r) =>
              r.errors.map((code) => (
                <li key={`${r.line}-${code}`}>{t("batch.rowError", { line: r.line, message: t(`codes.${code}`) })}</li>
              )),
            )}
            {checked.belowRent.map((idx) => (
              <li key={`rent-${idx}`}>
                {t("batch.belowRent", { line: parsed.rows.find((r) => r.index === idx)?.line ?? 0 })}
              </li>
            ))}
          </ul>
          {!job && <CheckedRows parsed={parsed} decimals={decimalsOf(checked.asset)} />}
          {hasDup && !job && (
            <label className="block">
              <input
                type="checkbox"
                checked={state.confirmDup}
                onChange={(e) => dispatch({ type: "confirm", which: "dup", value: e.target.checked })}
              />{" "}
              {t("batch.confirmDuplicates")}
            </label>
          )}
          {hasOffCurve && !job && (
            <label className="block">
              <input
                type="checkbox"
                checked={state.confirmOffCurve}
                onChange={(e) => dispatch({ type: "confirm", which: "offCurve", value: e.target.checked })}
              />{" "}
              {t("batch.confirmOffCurve")}
            </label>
          )}
          {checked.simulationFailure && simulationFailure && (
            <p role="alert" className="text-red-700 dark:text-red-400" data-testid="simulation-failure">
              {t("batch.simulationFailed", {
                n: checked.simulationFailure.txIndex + 1,
                error: simulationFailure.message,
              })}
              <Details detail={simulationFailure.detail} />
            </p>
          )}
          {checked.plan.transactions.length > 0 && !job && (
            <FeePicker estimate={checked.fees} choice={fee} onChange={setFee} disabled={running} />
          )}
          {checked.plan.transactions.length > 0 && priced && <CostSummary checked={checked} priced={priced} />}
          {!job && (
            <button type="button" disabled={!canSend} onClick={() => void start()} className={`px-4 py-2 ${primary}`}>
              {t("batch.send")}
            </button>
          )}
        </div>
      )}
      {job && <JobRows job={job} />}
      {job && <JobProgress job={job} twice={twice} />}
      {job && !running && !isJobFinished(job) && (
        <button type="button" className={primary} onClick={() => void send(job, "resume")}>
          {t("batch.resume")}
        </button>
      )}
      {job && !running && isJobFinished(job) && (
        <button type="button" className={primary} onClick={() => dispatch({ type: "newBatch" })}>
          {t("batch.newBatch")}
        </button>
      )}
      <PastBatches jobs={state.past} />
    </ToolPage>
  );
}
